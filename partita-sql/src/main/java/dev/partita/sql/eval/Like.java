package dev.partita.sql.eval;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * LIKE patterns: % any run, _ one character, [set] / [a-f] / [^...] one character, ESCAPE for literals. Matched by a
 * linear-time engine (RE2/J), as RegexMatch is: a backtracking engine takes exponential time on a pattern of many
 * {@code %} that almost matches (a 40-character string against {@code %a%a%a…%c} ran for minutes on one core).
 */
final class Like {
    private static final int CACHE_LIMIT = 512;
    private static final Map<String, Pattern> CACHE = new ConcurrentHashMap<>();
    /** A set with no characters in it ({@code [z-a]}, say) matches nothing, as in SQL Server, rather than failing. */
    private static final Pattern NOTHING = Pattern.compile("[^\\x{0}-\\x{10FFFF}]");

    private Like() {
    }

    /** Cached compiled pattern; escape is 0 when absent. */
    static Pattern compile(String like, char escape) {
        String key = escape + like;
        Pattern p = CACHE.get(key);
        if (p == null) {
            p = compileUncached(like, escape);
            if (CACHE.size() >= CACHE_LIMIT) {
                CACHE.clear();
            }
            CACHE.put(key, p);
        }
        return p;
    }

    static Pattern compileUncached(String like, char escape) {
        try {
            return Pattern.compile(toRegex(like, escape), Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            return NOTHING;
        }
    }

    static String toRegex(String like, char escape) {
        StringBuilder re = new StringBuilder(like.length() + 8);
        int n = like.length();
        for (int i = 0; i < n; i++) {
            char c = like.charAt(i);
            if (escape != 0 && c == escape && i + 1 < n) {
                literal(re, like.charAt(++i));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else if (c == '[') {
                int close = like.indexOf(']', i + 2);
                if (close < 0) {
                    literal(re, c);
                    continue;
                }
                String body = like.substring(i + 1, close);
                re.append('[');
                int j = 0;
                if (body.startsWith("^") && body.length() > 1) {
                    re.append('^');
                    j = 1;
                }
                for (; j < body.length(); j++) {
                    char b = body.charAt(j);
                    if (b == '-' && j > 0 && j < body.length() - 1 && !(j == 1 && body.charAt(0) == '^')) {
                        re.append('-');
                    } else {
                        classLiteral(re, b);
                    }
                }
                re.append(']');
                i = close;
            } else {
                literal(re, c);
            }
        }
        return re.toString();
    }

    private static void literal(StringBuilder re, char c) {
        if ("\\.[]{}()*+-?^$|&".indexOf(c) >= 0) {
            re.append('\\');
        }
        re.append(c);
    }

    private static void classLiteral(StringBuilder re, char c) {
        if ("\\[]^-&".indexOf(c) >= 0) {
            re.append('\\');
        }
        re.append(c);
    }
}
