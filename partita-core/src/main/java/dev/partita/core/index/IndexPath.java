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

    /** Parses an included or excluded path; {@code where} names the list for the error message. */
    static IndexPath parse(String text, String where) {
        List<String> steps = steps(text, where);
        String last = steps.isEmpty() ? "" : steps.remove(steps.size() - 1);
        boolean subtree = last.equals("*");
        if (!subtree && !last.equals("?") || steps.isEmpty() && !subtree) {
            throw invalid(text, where, "must end with '/?' or '/*' (the root is '/*')");
        }
        for (String s : steps) {
            if (s.equals("*") || s.equals("?")) {
                throw invalid(text, where, "may use '*' or '?' only as its last step");
            }
        }
        return new IndexPath(text, steps, subtree);
    }

    /** Parses a composite-index path: names only, without a wildcard ({@code /name}, {@code /"a b"/c}). */
    static List<String> parseComposite(String text) {
        List<String> steps = steps(text, "compositeIndexes");
        for (String s : steps) {
            if (s.equals("*") || s.equals("?") || s.equals(ANY_ELEMENT)) {
                throw invalid(text, "compositeIndexes", "must name a property path without '*', '?' or '[]'");
            }
        }
        if (steps.isEmpty()) {
            throw invalid(text, "compositeIndexes", "must name a property path");
        }
        return steps;
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

    private static List<String> steps(String text, String where) {
        if (text == null || !text.startsWith("/")) {
            throw invalid(text, where, "must start with '/'");
        }
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (text.charAt(i) != '/') {
                throw invalid(text, where, "has a step that is not separated by '/'");
            }
            i++;
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
                if (!closed) {
                    throw invalid(text, where, "has an unclosed quoted name");
                }
                out.add(step.toString());
                continue;
            }
            while (i < text.length() && text.charAt(i) != '/') {
                step.append(text.charAt(i++));
            }
            if (step.isEmpty()) {
                throw invalid(text, where, "has an empty step");
            }
            out.add(step.toString());
        }
        return out;
    }

    private static ServiceException invalid(String text, String where, String why) {
        return ServiceException.badRequest("The indexing policy path '" + text + "' in '" + where
                + "' is not valid: it " + why + ".");
    }
}
