package dev.partita.sql.functions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.Values;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

import static dev.partita.sql.functions.Builtins.VARIADIC;
import static dev.partita.sql.functions.Builtins.add;
import static dev.partita.sql.functions.Builtins.flag;
import static dev.partita.sql.functions.Builtins.str;

/** String functions. Lengths and positions count UTF-16 code units, as the service's .NET model does. */
final class StringFunctions {
    private static final ObjectMapper STRICT_JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final int MAX_REPLICATE_LENGTH = 10_000;
    private static final int REGEX_CACHE_LIMIT = 512;
    private static final Map<String, Pattern> REGEX_CACHE = new ConcurrentHashMap<>();
    /** Cached for a pattern that cannot be run, so that it is not compiled again for every row. */
    private static final Pattern UNUSABLE = Pattern.compile("");
    /**
     * Largest pattern, counted as its atoms with counted repeats expanded ({@code (a{10}){10}} is 100): the program a
     * linear-time engine builds grows with it, and so does the time to match each character.
     */
    static final int REGEX_MAX_SIZE = 10_000;

    private StringFunctions() {
    }

    static void register() {
        add("CONCAT", 2, VARIADIC, true, (a, e) -> {
            long length = 0;
            for (JsonNode n : a) {
                String s = str(n);
                if (s == null) {
                    return null;
                }
                length += s.length();
            }
            Values.checkBuiltLength(length, "CONCAT");
            StringBuilder sb = new StringBuilder((int) length);
            for (JsonNode n : a) {
                sb.append(n.textValue());
            }
            return TextNode.valueOf(sb.toString());
        });
        add("CONTAINS", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String t = str(a[1]);
            Boolean ic = flag(a, 2, false);
            if (s == null || t == null || ic == null) {
                return null;
            }
            return Values.bool(ic ? TextSearch.contains(upper(s), upper(t)) : TextSearch.contains(s, t));
        });
        add("STARTSWITH", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String t = str(a[1]);
            Boolean ic = flag(a, 2, false);
            if (s == null || t == null || ic == null) {
                return null;
            }
            return Values.bool(s.regionMatches(ic, 0, t, 0, t.length()));
        });
        add("ENDSWITH", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String t = str(a[1]);
            Boolean ic = flag(a, 2, false);
            if (s == null || t == null || ic == null) {
                return null;
            }
            int off = s.length() - t.length();
            return Values.bool(off >= 0 && s.regionMatches(ic, off, t, 0, t.length()));
        });
        add("STRINGEQUALS", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String t = str(a[1]);
            Boolean ic = flag(a, 2, false);
            if (s == null || t == null || ic == null) {
                return null;
            }
            return Values.bool(ic ? s.equalsIgnoreCase(t) : s.equals(t));
        });
        containsMany("CONTAINS_ALL_CI", true, true);
        containsMany("CONTAINS_ALL_CS", true, false);
        containsMany("CONTAINS_ANY_CI", false, true);
        containsMany("CONTAINS_ANY_CS", false, false);
        add("INDEX_OF", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String t = str(a[1]);
            if (s == null || t == null) {
                return null;
            }
            int start = 0;
            if (a.length > 2) {
                if (!Num.isInteger(a[2])) {
                    return null;
                }
                long st = Num.longValue(a[2]);
                if (st < 0 || st > s.length()) {
                    return Num.of(-1);
                }
                start = (int) st;
            }
            return Num.of(TextSearch.indexOf(s, t, start));
        });
        add("LASTINDEXOF", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String t = str(a[1]);
            if (s == null || t == null) {
                return null;
            }
            if (a.length > 2) {
                if (!Num.isInteger(a[2])) {
                    return null;
                }
                long st = Num.longValue(a[2]);
                if (st < 0) {
                    return Num.of(-1);
                }
                // the whole match must lie at or before position st
                long from = Math.min(st - t.length() + 1, s.length());
                if (from < 0) {
                    return Num.of(-1);
                }
                return Num.of(new TextSearch(t).lastIndexOf(s, (int) from));
            }
            return Num.of(new TextSearch(t).lastIndexOf(s, s.length()));
        });
        add("LEFT", 2, 2, true, (a, e) -> {
            String s = str(a[0]);
            if (s == null || !Num.isInteger(a[1])) {
                return null;
            }
            long n = Num.longValue(a[1]);
            if (n < 0) {
                return null;
            }
            return TextNode.valueOf(n >= s.length() ? s : s.substring(0, (int) n));
        });
        add("RIGHT", 2, 2, true, (a, e) -> {
            String s = str(a[0]);
            if (s == null || !Num.isInteger(a[1])) {
                return null;
            }
            long n = Num.longValue(a[1]);
            if (n < 0) {
                return null;
            }
            return TextNode.valueOf(n >= s.length() ? s : s.substring(s.length() - (int) n));
        });
        add("SUBSTRING", 3, 3, true, (a, e) -> {
            String s = str(a[0]);
            if (s == null || !Num.isInteger(a[1]) || !Num.isInteger(a[2])) {
                return null;
            }
            long start = Math.max(0, Num.longValue(a[1]));
            long len = Num.longValue(a[2]);
            if (start >= s.length() || len <= 0) {
                return TextNode.valueOf("");
            }
            long end = Math.min((long) s.length(), start + len);
            return TextNode.valueOf(s.substring((int) start, (int) end));
        });
        add("LENGTH", 1, 1, true, (a, e) -> {
            String s = str(a[0]);
            return s == null ? null : Num.of(s.length());
        });
        add("LOWER", 1, 1, true, (a, e) -> {
            String s = str(a[0]);
            return s == null ? null : TextNode.valueOf(s.toLowerCase(Locale.ROOT));
        });
        add("UPPER", 1, 1, true, (a, e) -> {
            String s = str(a[0]);
            return s == null ? null : TextNode.valueOf(upper(s));
        });
        add("LTRIM", 1, 2, true, (a, e) -> trim(a, true, false));
        add("RTRIM", 1, 2, true, (a, e) -> trim(a, false, true));
        add("TRIM", 1, 2, true, (a, e) -> trim(a, true, true));
        add("REPLACE", 3, 3, true, (a, e) -> {
            String s = str(a[0]);
            String f = str(a[1]);
            String r = str(a[2]);
            if (s == null || f == null || r == null || f.isEmpty()) {
                return null;
            }
            return TextNode.valueOf(replace(s, f, r));
        });
        add("REPLICATE", 2, 2, true, (a, e) -> {
            String s = str(a[0]);
            if (s == null || !Num.isInteger(a[1])) {
                return null;
            }
            long n = Num.longValue(a[1]);
            if (n < 0 || n * s.length() > MAX_REPLICATE_LENGTH) {
                return null;
            }
            return TextNode.valueOf(s.repeat((int) n));
        });
        add("REVERSE", 1, 1, true, (a, e) -> {
            String s = str(a[0]);
            return s == null ? null : TextNode.valueOf(new StringBuilder(s).reverse().toString());
        });
        add("RegexMatch", 2, 3, true, (a, e) -> {
            String s = str(a[0]);
            String p = str(a[1]);
            String mods = a.length > 2 ? str(a[2]) : "";
            if (s == null || p == null || mods == null) {
                return null;
            }
            Pattern pattern = regex(p, mods);
            return pattern == null ? null : Values.bool(pattern.matcher(s).find());
        });
        add("StringJoin", 2, 2, true, (a, e) -> {
            String sep = str(a[1]);
            if (a[0] == null || !a[0].isArray() || sep == null) {
                return null;
            }
            long length = (long) sep.length() * Math.max(0, a[0].size() - 1);
            for (JsonNode part : a[0]) {
                if (str(part) == null) {
                    return null;
                }
                length += part.textValue().length();
            }
            Values.checkBuiltLength(length, "StringJoin");
            StringBuilder sb = new StringBuilder((int) length);
            for (int i = 0; i < a[0].size(); i++) {
                String part = a[0].get(i).textValue();
                if (i > 0) {
                    sb.append(sep);
                }
                sb.append(part);
            }
            return TextNode.valueOf(sb.toString());
        });
        add("StringSplit", 2, 2, true, (a, e) -> {
            String s = str(a[0]);
            String sep = str(a[1]);
            if (s == null || sep == null) {
                return null;
            }
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            if (sep.isEmpty()) {
                out.add(s);
                return out;
            }
            TextSearch separator = new TextSearch(sep);
            int from = 0;
            while (true) {
                int i = separator.indexOf(s, from);
                if (i < 0) {
                    out.add(s.substring(from));
                    return out;
                }
                out.add(s.substring(from, i));
                from = i + sep.length();
            }
        });
        stringTo("StringToArray", JsonNode::isArray);
        stringTo("StringToBoolean", JsonNode::isBoolean);
        stringTo("StringToNull", JsonNode::isNull);
        stringTo("StringToNumber", JsonNode::isNumber);
        stringTo("StringToObject", JsonNode::isObject);
        add("ToString", 1, 1, true, (a, e) -> a[0].isTextual() ? a[0] : TextNode.valueOf(Values.toJsonText(a[0])));
    }

    /**
     * {@code s.replace(f, r)} for a non-empty {@code f}, with a search linear in {@code s} and {@code f}. A result
     * longer than {@link Values#MAX_BUILT_STRING} is refused before it is built: a million one-character matches each
     * replaced by a long string would otherwise fill the heap in one evaluation.
     */
    private static String replace(String s, String f, String r) {
        TextSearch search = new TextSearch(f);
        int i = search.indexOf(s, 0);
        if (i < 0) {
            return s;
        }
        long matches = 0;
        for (int j = i; j >= 0; j = search.indexOf(s, j + f.length())) {
            matches++;
        }
        long length = s.length() + matches * (r.length() - f.length());
        Values.checkBuiltLength(length, "REPLACE");
        StringBuilder out = new StringBuilder((int) length);
        int from = 0;
        do {
            out.append(s, from, i).append(r);
            from = i + f.length();
            i = search.indexOf(s, from);
        } while (i >= 0);
        return out.append(s, from, s.length()).toString();
    }

    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    private static void containsMany(String name, boolean all, boolean ignoreCase) {
        add(name, 2, VARIADIC, false, (a, e) -> {
            String s = str(a[0]);
            if (s == null) {
                return null;
            }
            String hay = ignoreCase ? upper(s) : s;
            boolean unknown = false;
            for (int i = 1; i < a.length; i++) {
                String t = str(a[i]);
                if (t == null) {
                    unknown = true;
                    continue;
                }
                boolean hit = TextSearch.contains(hay, ignoreCase ? upper(t) : t);
                if (all && !hit) {
                    return Values.bool(false);
                }
                if (!all && hit) {
                    return Values.bool(true);
                }
            }
            return unknown ? null : Values.bool(all);
        });
    }

    private static void stringTo(String name, java.util.function.Predicate<JsonNode> type) {
        add(name, 1, 1, true, (a, e) -> {
            String s = str(a[0]);
            if (s == null) {
                return null;
            }
            try {
                JsonNode n = STRICT_JSON.readTree(s);
                return n != null && !n.isMissingNode() && type.test(n) ? normalizeNumbers(n) : null;
            } catch (JsonProcessingException ex) {
                return null;
            }
        });
    }

    private static JsonNode normalizeNumbers(JsonNode n) {
        if (n.isFloatingPointNumber()) {
            return Num.of(n.doubleValue());
        }
        return n;
    }

    private static JsonNode trim(JsonNode[] a, boolean left, boolean right) {
        String s = str(a[0]);
        if (s == null) {
            return null;
        }
        String chars = null;
        if (a.length > 1) {
            chars = str(a[1]);
            if (chars == null) {
                return null;
            }
        }
        int start = 0;
        int end = s.length();
        if (left) {
            while (start < end && trimmable(s.charAt(start), chars)) {
                start++;
            }
        }
        if (right) {
            while (end > start && trimmable(s.charAt(end - 1), chars)) {
                end--;
            }
        }
        return TextNode.valueOf(s.substring(start, end));
    }

    private static boolean trimmable(char c, String chars) {
        if (chars == null) {
            return Character.isWhitespace(c) || Character.isSpaceChar(c);
        }
        return chars.indexOf(c) >= 0;
    }

    /**
     * A compiled regular expression for RegexMatch, cached; null when the pattern or modifiers are invalid.
     * <p>
     * The service documents PCRE. This runs RE2/J, which matches in time linear in the text (no catastrophic
     * backtracking: {@code ((a+)+)+$} answers at once) and accepts PCRE's syntax except what needs backtracking:
     * backreferences ({@code \1}), lookahead and lookbehind, atomic groups, possessive quantifiers, recursion and
     * conditionals, and {@code \Z}; those patterns are treated as invalid (RegexMatch is undefined, as for any pattern
     * that does not compile), as are patterns larger than {@link #REGEX_MAX_SIZE} once counted repeats are expanded.
     * One difference in meaning: without {@code m}, {@code $} matches only at the very end, where PCRE also matches
     * before a final newline. Modifiers: {@code i} case-insensitive (Unicode case folding), {@code m} multi-line,
     * {@code s} dot matches newline, {@code x} extended (unescaped whitespace outside a character class is dropped,
     * {@code #} starts a comment to the end of the line; RE2/J has no such flag, so the pattern is rewritten).
     */
    static Pattern regex(String pattern, String modifiers) {
        String key = modifiers + '\u0000' + pattern;
        Pattern p = REGEX_CACHE.get(key);
        if (p != null) {
            return p == UNUSABLE ? null : p;
        }
        p = compileRegex(pattern, modifiers);
        if (REGEX_CACHE.size() >= REGEX_CACHE_LIMIT) {
            REGEX_CACHE.clear();
        }
        REGEX_CACHE.put(key, p == null ? UNUSABLE : p);
        return p;
    }

    private static Pattern compileRegex(String pattern, String modifiers) {
        int flags = 0;
        boolean extended = false;
        for (int i = 0; i < modifiers.length(); i++) {
            switch (modifiers.charAt(i)) {
                case 'i' -> flags |= Pattern.CASE_INSENSITIVE;
                case 'x' -> extended = true;
                case 'm' -> flags |= Pattern.MULTILINE;
                case 's' -> flags |= Pattern.DOTALL;
                default -> {
                    return null;
                }
            }
        }
        String source = extended ? withoutExtendedWhitespace(pattern) : pattern;
        if (expandedSize(source) > REGEX_MAX_SIZE) {
            return null;
        }
        try {
            return Pattern.compile(source, flags);
        } catch (PatternSyntaxException | IllegalArgumentException ex) {
            return null;
        }
    }

    /** PCRE's extended mode: drops unescaped whitespace outside character classes and {@code #} comments. */
    static String withoutExtendedWhitespace(String p) {
        StringBuilder out = new StringBuilder(p.length());
        boolean inClass = false;
        int n = p.length();
        for (int i = 0; i < n; i++) {
            char c = p.charAt(i);
            if (c == '\\' && i + 1 < n) {
                if (p.charAt(i + 1) == 'Q') { // quoted to \E (or the end): copied as written
                    int end = p.indexOf("\\E", i + 2);
                    int stop = end < 0 ? n : end + 2;
                    out.append(p, i, stop);
                    i = stop - 1;
                } else {
                    out.append(c).append(p.charAt(++i));
                }
            } else if (inClass) {
                out.append(c);
                if (c == ']') {
                    inClass = false;
                }
            } else if (c == '[') {
                out.append(c);
                inClass = true;
                // a ']' first in the class (after an optional '^') is literal
                if (i + 1 < n && p.charAt(i + 1) == '^') {
                    out.append(p.charAt(++i));
                }
                if (i + 1 < n && p.charAt(i + 1) == ']') {
                    out.append(p.charAt(++i));
                }
            } else if (c == '#') {
                while (i + 1 < n && p.charAt(i + 1) != '\n') {
                    i++;
                }
            } else if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B')) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The pattern's size with counted repeats expanded, as an engine without backtracking compiles it: each atom (a
     * character, an escape, a class) is 1, a group the sum of its parts, {@code x{n,m}} the size of x times the larger
     * bound. Stops counting past {@link #REGEX_MAX_SIZE}. Approximate where it cannot matter (group prefixes such as
     * {@code ?:} count as atoms).
     */
    static long expandedSize(String p) {
        long limit = REGEX_MAX_SIZE + 1L;
        java.util.ArrayDeque<long[]> groups = new java.util.ArrayDeque<>(); // {sum, last} of each open group
        long sum = 0;
        long last = 0;
        int n = p.length();
        for (int i = 0; i < n && sum <= limit; i++) {
            char c = p.charAt(i);
            switch (c) {
                case '\\' -> {
                    if (i + 1 < n && p.charAt(i + 1) == 'Q') {
                        int end = p.indexOf("\\E", i + 2);
                        int stop = end < 0 ? n : end;
                        sum += Math.max(0, stop - (i + 2));
                        last = 1;
                        i = end < 0 ? n : end + 1;
                    } else {
                        if (i + 2 < n && p.charAt(i + 2) == '{' && "pPx".indexOf(p.charAt(i + 1)) >= 0) {
                            int close = p.indexOf('}', i + 2);
                            i = close < 0 ? n : close;
                        } else {
                            i++;
                        }
                        sum += 1;
                        last = 1;
                    }
                }
                case '[' -> {
                    int j = i + 1;
                    if (j < n && p.charAt(j) == '^') {
                        j++;
                    }
                    if (j < n && p.charAt(j) == ']') {
                        j++;
                    }
                    while (j < n && p.charAt(j) != ']') {
                        if (p.charAt(j) == '\\') {
                            j++;
                        } else if (p.charAt(j) == '[' && j + 1 < n && p.charAt(j + 1) == ':') {
                            int close = p.indexOf(":]", j + 2);
                            j = close < 0 ? j : close + 1;
                        }
                        j++;
                    }
                    i = j;
                    sum += 1;
                    last = 1;
                }
                case '(' -> {
                    groups.push(new long[] {sum, last});
                    sum = 0;
                    last = 0;
                }
                case ')' -> {
                    long group = sum;
                    long[] outer = groups.isEmpty() ? new long[] {0, 0} : groups.pop();
                    sum = outer[0] + group;
                    last = group;
                }
                case '{' -> {
                    int close = p.indexOf('}', i);
                    long times = close < 0 ? -1 : repeatBound(p.substring(i + 1, close));
                    if (times < 0) {
                        sum += 1;
                        last = 1;
                    } else {
                        long grown = Math.min(limit, last * times);
                        sum = Math.min(limit, sum - last + grown);
                        last = grown;
                        i = close;
                    }
                }
                case '*', '+', '?', '|' -> {
                }
                default -> {
                    sum += 1;
                    last = 1;
                }
            }
        }
        while (!groups.isEmpty()) {
            sum += groups.pop()[0];
        }
        return sum;
    }

    /** The larger bound of a counted repeat's {@code n}, {@code n,} or {@code n,m} (n + 1 for {@code n,}), or -1. */
    private static long repeatBound(String body) {
        int comma = body.indexOf(',');
        String lo = comma < 0 ? body : body.substring(0, comma);
        String hi = comma < 0 ? "" : body.substring(comma + 1);
        if (lo.isEmpty() || lo.length() > 9 || hi.length() > 9 || !lo.chars().allMatch(Character::isDigit)
                || !hi.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        long low = Long.parseLong(lo);
        if (comma < 0) {
            return low;
        }
        return hi.isEmpty() ? low + 1 : Math.max(low, Long.parseLong(hi));
    }
}
