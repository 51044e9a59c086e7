package dev.partita.sql.parse;

import dev.partita.sql.CosmosSqlLexer;
import dev.partita.sql.SqlException;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/**
 * Turns the first lexer or parser error into a {@link SqlException} naming the token and position: SC1010 "invalid
 * token" for a character the language has no token for (a smart quote, a semicolon), SC1001 "incorrect syntax" for a
 * token where the grammar allows none.
 */
final class SyntaxErrors extends BaseErrorListener {
    static final SyntaxErrors INSTANCE = new SyntaxErrors();

    private SyntaxErrors() {
    }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int column, String msg,
                            RecognitionException e) {
        int start = -1;
        int end = -1;
        String near;
        if (offendingSymbol instanceof Token t && t.getType() == CosmosSqlLexer.ERROR_CHAR) {
            // the service's words (the Java SDK's HybridSearchQueryTest.wrongHybridQueryTest: "invalid token")
            throw new SqlException("SC1010", "Syntax error, invalid token '" + shorten(t.getText()) + "'.",
                    t.getStartIndex(), t.getStopIndex() + 1);
        }
        if (offendingSymbol instanceof Token t) {
            start = t.getStartIndex();
            end = t.getStopIndex() + 1;
            near = t.getType() == Token.EOF ? "end of query" : "'" + shorten(t.getText()) + "'";
        } else {
            near = "character at this position";
        }
        // the service's text; where the error is travels as the offsets, which the gateway reports as its location
        throw new SqlException("SC1001", "Syntax error, incorrect syntax near " + near + ".", start, end);
    }

    private static String shorten(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
