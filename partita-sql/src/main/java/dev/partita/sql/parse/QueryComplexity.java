package dev.partita.sql.parse;

import dev.partita.sql.CosmosSqlLexer;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import org.antlr.v4.runtime.Token;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks of {@link QueryLimits}, each linear and without recursion, so that an input of any size or depth is
 * measured in about the time it takes to read it.
 */
final class QueryComplexity {
    private QueryComplexity() {
    }

    /** Rejects a text longer than {@code maxBytes} in UTF-8. The message gives sizes only, never the text. */
    static void checkSize(String text, int maxBytes) {
        if (text.length() <= maxBytes / 3) {
            return; // at most 3 UTF-8 bytes a char (4 for a pair of 2 chars)
        }
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        if (bytes > maxBytes) {
            throw new SqlException(null, "The query text is " + bytes + " bytes long (UTF-8), more than the maximum "
                    + "length of a query, " + maxBytes + " bytes.", 0, text.length());
        }
    }

    /**
     * Measures, on the tokens, how deeply the parser will recurse: each open bracket, parenthesis or brace is a level
     * until it closes; a run of prefix operators ({@code - + ~ NOT}) is a level each, held inside any bracket that
     * follows them ({@code -(-(-(...)))}); each {@code ?} of a conditional is a level until a comma, a closing bracket,
     * {@code ??} or a clause keyword ends the conditional. Rejects the query at the first token past {@code max}, with
     * that token's position; returns the greatest depth otherwise. The count errs on the high side where it cannot
     * tell without parsing, never on the low side.
     */
    static int checkNesting(List<Token> tokens, int max) {
        int[] held = new int[max + 2];      // levels each open bracket holds (1 + the operators and ?s before it)
        int[] ternaries = new int[max + 2]; // the enclosing level's open ?s, restored when the bracket closes
        int open = 0;
        int base = 0;                       // levels held by the open brackets
        int prefixes = 0;                   // the current run of prefix operators
        int conditionals = 0;               // ?s open at this bracket level
        int deepest = 0;
        boolean afterOperand = false;       // the previous token ends an operand: a - + or NOT here is binary
        for (Token t : tokens) {
            boolean binary = afterOperand;
            afterOperand = endsOperand(t.getType());
            switch (t.getType()) {
                case CosmosSqlLexer.LPAREN, CosmosSqlLexer.LBRACKET, CosmosSqlLexer.LBRACE -> {
                    int levels = 1 + prefixes + conditionals;
                    if (base + levels > max) {
                        throw tooDeep(t, max);
                    }
                    held[open] = levels;
                    ternaries[open] = conditionals;
                    open++;
                    base += levels;
                    prefixes = 0;
                    conditionals = 0;
                }
                case CosmosSqlLexer.RPAREN, CosmosSqlLexer.RBRACKET, CosmosSqlLexer.RBRACE -> {
                    if (open > 0) { // an unmatched one is the parser's syntax error
                        open--;
                        base -= held[open];
                        conditionals = ternaries[open];
                    }
                    prefixes = 0;
                }
                case CosmosSqlLexer.MINUS, CosmosSqlLexer.PLUS, CosmosSqlLexer.NOT -> prefixes = binary ? 0 : prefixes + 1;
                case CosmosSqlLexer.TILDE -> prefixes++;
                case CosmosSqlLexer.QUESTION -> {
                    conditionals++;
                    prefixes = 0;
                }
                case CosmosSqlLexer.COMMA, CosmosSqlLexer.COALESCE, CosmosSqlLexer.FROM, CosmosSqlLexer.WHERE,
                        CosmosSqlLexer.GROUP, CosmosSqlLexer.ORDER, CosmosSqlLexer.JOIN, CosmosSqlLexer.OFFSET,
                        CosmosSqlLexer.LIMIT -> {
                    conditionals = 0;
                    prefixes = 0;
                }
                default -> prefixes = 0;
            }
            int depth = base + prefixes + conditionals;
            if (depth > max) {
                throw tooDeep(t, max);
            }
            deepest = Math.max(deepest, depth);
        }
        return deepest;
    }

    private static boolean endsOperand(int type) {
        return switch (type) {
            case CosmosSqlLexer.RPAREN, CosmosSqlLexer.RBRACKET, CosmosSqlLexer.RBRACE, CosmosSqlLexer.NUMBER,
                    CosmosSqlLexer.STRING, CosmosSqlLexer.IDENTIFIER, CosmosSqlLexer.PARAM, CosmosSqlLexer.TRUE,
                    CosmosSqlLexer.FALSE, CosmosSqlLexer.NULL, CosmosSqlLexer.UNDEFINED -> true;
            default -> false;
        };
    }

    private static SqlException tooDeep(Token t, int max) {
        return new SqlException(null, "The query is nested too deeply: more than " + max + " levels of brackets, "
                + "parentheses, braces, subqueries, prefix operators or conditional expressions, at line " + t.getLine()
                + ", column " + (t.getCharPositionInLine() + 1) + ".", t.getStartIndex(), t.getStopIndex() + 1);
    }

    /**
     * Rejects a tree deeper than {@code max} levels, where the query is a level, each subquery and each expression
     * node another: {@code 1 + 1 + 1} is a query over two additions over a constant, four levels.
     */
    static void checkDepth(Query root, int max) {
        record Level(Object node, int depth) {
        }
        ArrayDeque<Level> pending = new ArrayDeque<>();
        pending.push(new Level(root, 1));
        while (!pending.isEmpty()) {
            Level l = pending.pop();
            if (l.depth() > max) {
                throw new SqlException(null, "The query's expressions are too deep: more than " + max + " levels of "
                        + "operators, member accesses, calls and subqueries. A long chain of alternatives "
                        + "(a = 1 OR a = 2 OR ...) can be written as a IN (1, 2, ...).");
            }
            for (Object child : children(l.node())) {
                pending.push(new Level(child, l.depth() + 1));
            }
        }
    }

    private static List<?> children(Object node) {
        if (node instanceof Expr.Subquery s) {
            return List.of(s.query());
        }
        if (node instanceof Expr e) {
            return Validator.children(e);
        }
        Query q = (Query) node;
        List<Object> out = new ArrayList<>(Validator.selectExprs(q.selection()));
        for (Query.FromSource fs : q.from()) {
            if (fs.collection() instanceof Query.Collection.SubqueryCollection sq) {
                out.add(sq.query());
            }
        }
        if (q.where() != null) {
            out.add(q.where());
        }
        out.addAll(q.groupBy());
        for (Query.OrderItem o : q.orderBy()) {
            out.add(o.expr());
        }
        return out;
    }
}
