package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.eval.Compiler;
import dev.partita.sql.eval.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A string function of one path whose other arguments are constants ({@code CONTAINS}, {@code STARTSWITH},
 * {@code ENDSWITH}, {@code RegexMatch}, {@code LIKE}), decided for one string value as the query itself would decide
 * it: the conjunct is compiled by the language's own compiler with the path replaced by the item and the arguments
 * by their values, so case folding, Unicode and pattern rules are the functions' own. An engine tests the distinct
 * strings an index holds for the path with it instead of loading every item. Immutable and thread-safe.
 */
public final class StringTermMatch {
    private static final Set<String> FUNCTIONS = Set.of("contains", "startswith", "endswith", "regexmatch");
    private static final JsonNode[] NO_PARAMS = new JsonNode[0];

    private final Compiler.Program program;
    private final String prefix;

    private StringTermMatch(Compiler.Program program, String prefix) {
        this.program = program;
        this.prefix = prefix;
    }

    /** True when the function is true for this string (the path's value). */
    public boolean test(String value) {
        Frame f = new Frame(program.slotCount(), NO_PARAMS, List.of(TextNode.valueOf(value)), null);
        return program.query().anyMatch(f);
    }

    /**
     * A literal prefix every matching string starts with (case-sensitive, ordinal), or "" when there is none: lets
     * the engine read only the path's strings that start with it.
     */
    public String prefix() {
        return prefix;
    }

    /**
     * The test of a conjunct that is one of the functions on {@code path(e)} with constant other arguments, or null.
     *
     * @param root   the alias that binds whole items
     * @param source the query's first FROM source (binds {@code root})
     */
    static StringTermMatch of(Expr conjunct, IndexPredicates paths, Query.FromSource source, String root,
            Map<String, JsonNode> params) {
        Expr.Identifier item = new Expr.Identifier(root);
        Expr test;
        String prefix = "";
        switch (conjunct) {
            case Expr.Call call when FUNCTIONS.contains(call.name().toLowerCase(Locale.ROOT))
                    && call.args().size() >= 2 && call.args().size() <= 3 && paths.path(call.args().get(0)) != null -> {
                List<Expr> args = new ArrayList<>();
                args.add(item);
                for (Expr a : call.args().subList(1, call.args().size())) {
                    JsonNode v = PrimitiveConstants.of(a, params);
                    if (v == null) {
                        return null;
                    }
                    args.add(new Expr.Literal(v));
                }
                test = new Expr.Call(call.name(), args);
            }
            case Expr.Like like when !like.not() && paths.path(like.value()) != null -> {
                JsonNode pattern = PrimitiveConstants.of(like.pattern(), params);
                JsonNode escape = like.escape() == null ? null : PrimitiveConstants.of(like.escape(), params);
                if (pattern == null || like.escape() != null && escape == null) {
                    return null;
                }
                if (pattern.isTextual() && (escape == null || escape.isTextual() && escape.textValue().length() == 1)) {
                    prefix = likePrefix(pattern.textValue(), escape == null ? 0 : escape.textValue().charAt(0));
                }
                test = new Expr.Like(item, new Expr.Literal(pattern), escape == null ? null : new Expr.Literal(escape),
                        false);
            }
            default -> {
                return null;
            }
        }
        Query q = new Query(false, null, new Query.Selection.Star(), List.of(source), test, List.of(), List.of(), null,
                null);
        try {
            return new StringTermMatch(Compiler.compile(q), prefix);
        } catch (SqlException e) {
            return null; // an argument the function refuses (a bad ESCAPE): the query's own evaluation reports it
        }
    }

    /** The literal characters a LIKE pattern starts with, before its first wildcard or character class. */
    static String likePrefix(String pattern, char escape) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != 0 && c == escape && i + 1 < pattern.length()) {
                out.append(pattern.charAt(++i));
            } else if (c == '%' || c == '_' || c == '[' || escape != 0 && c == escape) {
                break;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
