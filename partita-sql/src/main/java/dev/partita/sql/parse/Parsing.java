package dev.partita.sql.parse;

import dev.partita.sql.CosmosSqlLexer;
import dev.partita.sql.CosmosSqlParser;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Query;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

import java.util.function.Function;

/** Text → validated AST. Tries the fast SLL prediction mode first and falls back to full LL. */
public final class Parsing {
    private Parsing() {
    }

    /** Parses a full query ("SELECT ..."). */
    public static Query parse(String text) {
        Query q = run(text, p -> AstBuilder.query(p.program().selectQuery()));
        Validator.validate(q);
        return q;
    }

    /** Parses a condition ("FROM c WHERE ..."), returned as "SELECT * FROM c WHERE ...". */
    public static Query parseCondition(String text) {
        Query q = run(text, p -> AstBuilder.condition(p.condition()));
        Validator.validate(q);
        return q;
    }

    private static Query run(String text, Function<CosmosSqlParser, Query> build) {
        if (text == null) {
            throw new SqlException("The query text is missing.");
        }
        CosmosSqlLexer lexer = new CosmosSqlLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        lexer.addErrorListener(SyntaxErrors.INSTANCE);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        CosmosSqlParser parser = new CosmosSqlParser(tokens);
        parser.removeErrorListeners();
        parser.setErrorHandler(new BailErrorStrategy());
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            return build.apply(parser);
        } catch (ParseCancellationException e) {
            tokens.seek(0);
            parser.reset();
            parser.addErrorListener(SyntaxErrors.INSTANCE);
            parser.setErrorHandler(new DefaultErrorStrategy());
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
            return build.apply(parser);
        }
    }
}
