package dev.partita.server;

import java.util.List;
import java.util.Random;

/** Random query texts: token soup from the query language's vocabulary, and random well-nested queries. */
final class FuzzQueries {
    private FuzzQueries() {
    }

    static final List<String> KEYWORDS = List.of("SELECT", "VALUE", "DISTINCT", "TOP", "FROM", "IN", "JOIN", "WHERE",
            "AND", "OR", "NOT", "BETWEEN", "LIKE", "ESCAPE", "ORDER BY", "ASC", "DESC", "GROUP BY", "OFFSET", "LIMIT",
            "EXISTS", "ARRAY", "AS", "true", "false", "null", "undefined", "Infinity", "NaN", "c", "root", "*", "udf");
    static final List<String> FUNCTIONS = List.of("COUNT", "SUM", "AVG", "MIN", "MAX", "IS_DEFINED", "IS_NULL",
            "IS_NUMBER", "IS_STRING", "IS_ARRAY", "IS_OBJECT", "IS_BOOL", "IS_PRIMITIVE", "ARRAY_CONTAINS",
            "ARRAY_LENGTH", "ARRAY_SLICE", "ARRAY_CONCAT", "CONCAT", "CONTAINS", "STARTSWITH", "ENDSWITH", "LOWER",
            "UPPER", "SUBSTRING", "LENGTH", "INDEX_OF", "REPLACE", "REPLICATE", "REVERSE", "LEFT", "RIGHT", "LTRIM",
            "TRIM", "ToString", "StringToNumber", "StringToArray", "ABS", "ROUND", "FLOOR", "CEILING", "POWER", "SQRT",
            "LOG", "EXP", "RAND", "PI", "IIF", "ST_DISTANCE", "ST_WITHIN", "RegexMatch", "GetCurrentDateTime",
            "DateTimeAdd", "DateTimePart", "DateTimeDiff", "ObjectToArray", "SetIntersect", "DOCUMENTID",
            "StringEquals", "NumberBin", "VectorDistance", "FullTextContains", "udf.nope");
    static final List<String> OPERATORS = List.of("+", "-", "*", "/", "%", "||", "??", "?", ":", "=", "!=", "<>",
            "<", ">", "<=", ">=", "&", "|", "^", "~", "<<", ">>", ">>>", "(", ")", "[", "]", "{", "}", ",", ".", "@p",
            "@", "'s'", "\"d\"", "'", "\"", "--", "/*", "\\", "1", "-1", "0.5", "1e999");

    /** Any query text. */
    static String query(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> soup(r, 1 + r.nextInt(40));
            case 1 -> mutate(r, structured(r));
            case 2 -> nested(r, 20 + r.nextInt(r.nextInt(10) == 0 ? 5000 : 200));
            default -> structured(r);
        };
    }

    static String soup(Random r, int tokens) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tokens; i++) {
            sb.append(token(r)).append(r.nextInt(6) == 0 ? "" : " ");
        }
        return sb.toString();
    }

    private static String token(Random r) {
        int roll = r.nextInt(10);
        return roll < 4 ? FuzzValues.pick(r, KEYWORDS) : roll < 6 ? FuzzValues.pick(r, FUNCTIONS)
                : roll < 9 ? FuzzValues.pick(r, OPERATORS) : property(r);
    }

    private static String property(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> "c.pk";
            case 1 -> "c.id";
            case 2 -> "c[\"" + FuzzValues.pick(r, List.of("a", "b", "pk", "")) + "\"]";
            case 3 -> "c.a.b[" + (r.nextInt(4) - 1) + "]";
            default -> "c._ts";
        };
    }

    /** A query of the usual shape, clauses and expressions random. */
    static String structured(Random r) {
        StringBuilder sb = new StringBuilder("SELECT ");
        if (r.nextInt(4) == 0) {
            sb.append("TOP ").append(FuzzValues.number(r)).append(' ');
        }
        if (r.nextInt(4) == 0) {
            sb.append("DISTINCT ");
        }
        sb.append(switch (r.nextInt(5)) {
            case 0 -> "*";
            case 1 -> "VALUE " + expr(r, 3);
            case 2 -> FuzzValues.pick(r, List.of("COUNT", "SUM", "AVG", "MIN", "MAX")) + "(" + expr(r, 1) + ")";
            default -> expr(r, 2) + " AS x, " + property(r);
        });
        sb.append(" FROM c");
        if (r.nextInt(4) == 0) {
            sb.append(" JOIN t IN c.tags");
        }
        if (r.nextBoolean()) {
            sb.append(" WHERE ").append(expr(r, 4));
        }
        if (r.nextInt(4) == 0) {
            sb.append(" GROUP BY ").append(property(r));
        }
        if (r.nextInt(3) == 0) {
            sb.append(" ORDER BY ").append(property(r)).append(r.nextBoolean() ? " DESC" : "");
            if (r.nextBoolean()) {
                sb.append(", ").append(property(r));
            }
        }
        if (r.nextInt(5) == 0) {
            sb.append(" OFFSET ").append(FuzzValues.number(r)).append(" LIMIT ").append(FuzzValues.number(r));
        }
        return sb.toString();
    }

    static String expr(Random r, int depth) {
        if (depth <= 0 || r.nextInt(3) == 0) {
            return switch (r.nextInt(4)) {
                case 0 -> property(r);
                case 1 -> "@p" + r.nextInt(3);
                case 2 -> FuzzValues.json(r, 1);
                default -> "'" + FuzzValues.string(r).replace("'", "") + "'";
            };
        }
        return switch (r.nextInt(7)) {
            case 0 -> expr(r, depth - 1) + " " + FuzzValues.pick(r, OPERATORS.subList(0, 23)) + " " + expr(r, depth - 1);
            case 1 -> FuzzValues.pick(r, FUNCTIONS) + "(" + expr(r, depth - 1) + (r.nextBoolean() ? ", "
                    + expr(r, depth - 1) : "") + ")";
            case 2 -> "NOT " + expr(r, depth - 1);
            case 3 -> expr(r, depth - 1) + " BETWEEN " + expr(r, depth - 1) + " AND " + expr(r, depth - 1);
            case 4 -> "EXISTS(SELECT VALUE t FROM t IN c.tags WHERE " + expr(r, depth - 1) + ")";
            case 5 -> expr(r, depth - 1) + " IN (" + expr(r, 0) + ", " + expr(r, 0) + ")";
            default -> "(" + expr(r, depth - 1) + ")";
        };
    }

    /** Deep nesting of one kind: parentheses, function calls, subqueries, arrays, unary minus. */
    static String nested(Random r, int depth) {
        String[] openClose = FuzzValues.pick(r, List.of(new String[] {"(", ")"}, new String[] {"ABS(", ")"},
                new String[] {"[", "]"}, new String[] {"-", ""}, new String[] {"NOT ", ""},
                new String[] {"(SELECT VALUE ", ")"}, new String[] {"{\"a\":", "}"}, new String[] {"c.a + ", ""}));
        return "SELECT VALUE " + openClose[0].repeat(depth) + "1" + openClose[1].repeat(depth) + " FROM c";
    }

    private static String mutate(Random r, String q) {
        StringBuilder sb = new StringBuilder(q);
        for (int i = 1 + r.nextInt(3); i > 0 && !sb.isEmpty(); i--) {
            int at = r.nextInt(sb.length());
            if (r.nextBoolean()) {
                sb.delete(at, Math.min(sb.length(), at + 1 + r.nextInt(6)));
            } else {
                sb.insert(at, " " + token(r) + " ");
            }
        }
        return sb.toString();
    }

    /** The body of a query request: usually well-formed JSON, parameters of any type. */
    static String body(Random r) {
        String q = FuzzValues.quote(query(r));
        return switch (r.nextInt(10)) {
            case 0 -> "{\"query\":" + FuzzValues.json(r, 2) + "}";
            case 1 -> "{\"query\":" + q + ",\"parameters\":" + FuzzValues.json(r, 3) + "}";
            case 2 -> "{\"query\":" + q + ",\"parameters\":[{\"name\":" + FuzzValues.json(r, 1) + ",\"value\":1}]}";
            case 3 -> FuzzValues.broken(r);
            case 4, 5 -> "{\"query\":" + q + "}";
            default -> "{\"query\":" + q + ",\"parameters\":[{\"name\":\"@p0\",\"value\":" + FuzzValues.json(r, 3)
                    + "},{\"name\":\"@p1\",\"value\":" + FuzzValues.json(r, 1) + "}]}";
        };
    }
}
