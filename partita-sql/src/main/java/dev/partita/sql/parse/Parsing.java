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

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Text → validated AST. Tries the fast SLL prediction mode first and falls back to full LL.
 * <p>
 * The {@link QueryLimits} are checked on the way, each before the stage it protects: the text's size before lexing,
 * the nesting of the tokens before the (recursive) parser runs, the depth of the tree before anything walks it. Within
 * them a query is parsed on the caller's thread when it is small and shallow (nearly every query), otherwise on a
 * parser thread with a large stack, where the parser's recursion (about twenty frames for each level of nesting) and
 * the compiler's have room; what walks the tree afterwards on a request's thread (evaluation, plans, index analysis)
 * takes a few frames a level and fits in an ordinary 1 MB stack at the limits.
 */
public final class Parsing {
    /** Queries at most this deeply nested and this many tokens long are parsed on the caller's thread. */
    static final int INLINE_NESTING = 16;
    static final int INLINE_TOKENS = 500;
    private static final long LARGE_STACK_BYTES = 16L * 1024 * 1024;
    private static final ExecutorService LARGE_STACK = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(null, r, "partita-sql-parser", LARGE_STACK_BYTES);
        t.setDaemon(true);
        return t;
    });

    private Parsing() {
    }

    /** What to do with a validated tree, on the same thread; {@code largeStack} says whether that thread is a parser's. */
    @FunctionalInterface
    public interface Then<T> {
        T apply(Query ast, boolean largeStack);
    }

    /** Parses a full query ("SELECT ...") within the default limits. */
    public static Query parse(String text) {
        return parse(text, QueryLimits.DEFAULTS, (ast, large) -> ast);
    }

    /** Parses a full query ("SELECT ...") within {@code limits} and hands the validated tree to {@code then}. */
    public static <T> T parse(String text, QueryLimits limits, Then<T> then) {
        return run(text, limits, p -> AstBuilder.query(p.program().selectQuery()), then);
    }

    /** Parses a condition ("FROM c WHERE ..."), returned as "SELECT * FROM c WHERE ...", within the default limits. */
    public static Query parseCondition(String text) {
        return parseCondition(text, QueryLimits.DEFAULTS, (ast, large) -> ast);
    }

    /** Parses a condition ("FROM c WHERE ...") within {@code limits} and hands the tree to {@code then}. */
    public static <T> T parseCondition(String text, QueryLimits limits, Then<T> then) {
        return run(text, limits, p -> AstBuilder.condition(p.condition()), then);
    }

    /**
     * Runs {@code work} (a walk over a tree this class parsed) on a parser thread when the tree was parsed on one
     * ({@code largeStack}), otherwise here.
     */
    public static <T> T onStack(boolean largeStack, Supplier<T> work) {
        return largeStack ? onLargeStack(work) : work.get();
    }

    private static <T> T run(String text, QueryLimits limits, Function<CosmosSqlParser, Query> build, Then<T> then) {
        if (text == null) {
            throw new SqlException("The query text is missing.");
        }
        QueryComplexity.checkSize(text, limits.maxQueryTextBytes());
        CosmosSqlLexer lexer = new CosmosSqlLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        lexer.addErrorListener(SyntaxErrors.INSTANCE);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        int nesting = QueryComplexity.checkNesting(tokens.getTokens(), limits.maxNestingDepth());
        boolean large = nesting > INLINE_NESTING || tokens.size() > INLINE_TOKENS;
        return onStack(large, () -> {
            Query q = parse(tokens, build);
            QueryComplexity.checkDepth(q, limits.maxExpressionDepth());
            Validator.validate(q);
            return then.apply(q, large);
        });
    }

    private static Query parse(CommonTokenStream tokens, Function<CosmosSqlParser, Query> build) {
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

    private static <T> T onLargeStack(Supplier<T> work) {
        Future<T> f = LARGE_STACK.submit(work::get);
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while parsing a query.", e);
        }
    }
}
