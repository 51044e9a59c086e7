package dev.partita.core.index;

import dev.partita.core.error.ServiceException;
import java.util.ArrayList;
import java.util.List;

/**
 * One path of an indexing policy: property-name steps (and {@code []} for "any array element"), ending in {@code /?}
 * (the scalar value at exactly this path) or {@code /*} (this path and everything below it). {@code /*} alone is the
 * root. A document path is a list of steps where a {@code String} is a property name and an {@code Integer} an array
 * position.
 *
 * @param text    the path as the policy spells it
 * @param steps   property names, or {@link #ANY_ELEMENT}
 * @param subtree true for {@code /*}, false for {@code /?}
 */
public record IndexPath(String text, List<String> steps, boolean subtree) {
    /** The step that matches any array position. */
    public static final String ANY_ELEMENT = "[]";

    public IndexPath {
        steps = List.copyOf(steps);
    }

    /** The legacy spelling of the root that older SDKs and tools still send; the service reads it as {@code /*}. */
    static final String LEGACY_ROOT = "/";

    /** Parses an included, excluded or spatial path ({@code /} is the root, as {@code /*}). */
    static IndexPath parse(String text) {
        if (LEGACY_ROOT.equals(text)) {
            return new IndexPath("/*", List.of(), true);
        }
        List<Step> steps = steps(text);
        Step last = steps.isEmpty() ? null : steps.remove(steps.size() - 1);
        boolean subtree = last != null && last.is("*");
        if (last == null || !subtree && !last.is("?") || steps.isEmpty() && !subtree) {
            throw invalid(text, last == null ? text.length() : last.at());
        }
        List<String> names = new ArrayList<>();
        for (Step s : steps) {
            if (s.is("*") || s.is("?")) {
                throw invalid(text, s.at());
            }
            names.add(s.name());
        }
        return new IndexPath(text, names, subtree);
    }

    /** Parses a composite-index path: names only, without a wildcard ({@code /name}, {@code /"a b"/c}). */
    static List<String> parseComposite(String text) {
        List<Step> steps = steps(text);
        if (steps.isEmpty()) {
            throw invalid(text, text.length());
        }
        List<String> names = new ArrayList<>();
        for (Step s : steps) {
            if (s.is("*") || s.is("?") || s.is(ANY_ELEMENT)) {
                throw invalid(text, s.at());
            }
            names.add(s.name());
        }
        return names;
    }

    /** What the path names, whatever its spelling: {@code /a/?} and {@code /"a"/?} are the same path. */
    List<Object> identity() {
        return List.of(steps, subtree);
    }

    /** True for the root path {@code /*}: everything. */
    boolean isRoot() {
        return subtree && steps.isEmpty();
    }

    /** True when this path covers the scalar at {@code docPath}. */
    boolean matches(List<Object> docPath) {
        int n = steps.size();
        if (subtree ? docPath.size() < n : docPath.size() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            String step = steps.get(i);
            Object at = docPath.get(i);
            boolean ok = step.equals(ANY_ELEMENT) ? at instanceof Integer : step.equals(at);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** True when this path could cover something at or below {@code prefix} (for pruning the document walk). */
    boolean mayCoverBelow(List<Object> prefix) {
        int n = Math.min(steps.size(), prefix.size());
        for (int i = 0; i < n; i++) {
            String step = steps.get(i);
            Object at = prefix.get(i);
            if (!(step.equals(ANY_ELEMENT) ? at instanceof Integer : step.equals(at))) {
                return false;
            }
        }
        return subtree || prefix.size() < steps.size();
    }

    /** Precedence between overlapping paths: more steps is more precise; at equal depth {@code /?} beats {@code /*}. */
    int precision() {
        return 2 * steps.size() + (subtree ? 0 : 1);
    }

    /** One step as written: its name, where it starts, and whether it was quoted (a quoted "*" is a name). */
    private record Step(String name, int at, boolean quoted) {
        boolean is(String token) {
            return !quoted && name.equals(token);
        }
    }

    private static List<Step> steps(String text) {
        if (text == null || !text.startsWith("/")) {
            throw invalid(String.valueOf(text), 0);
        }
        List<Step> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int at = ++i; // past the '/'
            StringBuilder step = new StringBuilder();
            if (i < text.length() && text.charAt(i) == '"') {
                i++;
                boolean closed = false;
                while (i < text.length()) {
                    char ch = text.charAt(i++);
                    if (ch == '\\' && i < text.length()) {
                        step.append(text.charAt(i++));
                    } else if (ch == '"') {
                        closed = true;
                        break;
                    } else {
                        step.append(ch);
                    }
                }
                if (!closed || i < text.length() && text.charAt(i) != '/') {
                    throw invalid(text, i);
                }
                out.add(new Step(step.toString(), at, true));
                continue;
            }
            while (i < text.length() && text.charAt(i) != '/') {
                char ch = text.charAt(i);
                if (needsQuotes(ch)) {
                    throw invalid(text, i);
                }
                step.append(ch);
                i++;
            }
            if (step.isEmpty()) {
                throw invalid(text, at);
            }
            out.add(new Step(step.toString(), at, false));
        }
        return out;
    }

    /** A character an unquoted name may not hold: such a name is written quoted, {@code /"a b"/?}. */
    private static boolean needsQuotes(char ch) {
        return Character.isWhitespace(ch) || Character.isISOControl(ch) || ch == '"' || ch == '\'' || ch == '\\';
    }

    /** The service's 400 for a path it cannot parse, with the (0-based) position where parsing stopped. */
    private static ServiceException invalid(String text, int position) {
        return ServiceException.badRequest("The indexing path '" + text + "' could not be accepted, failed near"
                + " position '" + position + "'. Please ensure that the path is a valid path. Common errors include"
                + " invalid characters or absence of quotes around labels.");
    }
}
