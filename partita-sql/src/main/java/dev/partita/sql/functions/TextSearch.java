package dev.partita.sql.functions;

/**
 * One string found in another in time linear in both (Knuth–Morris–Pratt over UTF-16 units, as {@link String#indexOf}
 * counts). {@code String.indexOf} compares the needle at every position, so a needle of half a million {@code a}s and a
 * {@code b} against a million {@code a}s took hours in one evaluation the query's time budget cannot interrupt; a short
 * needle keeps {@code String.indexOf}, whose worst case is bounded by the needle's length and whose common case is
 * vectorised.
 */
final class TextSearch {
    /** Needles up to this long are searched by {@code String.indexOf}: at most this many comparisons per position. */
    private static final int SHORT = 32;

    private final String needle;
    /** For each prefix of the needle, the length of its longest proper border; null for a short needle. */
    private final int[] borders;
    /** The same for the reversed needle (for searches backwards); made when first needed. */
    private int[] reversedBorders;

    TextSearch(String needle) {
        this.needle = needle;
        this.borders = needle.length() > SHORT ? borders(needle, false) : null;
    }

    static int indexOf(String hay, String needle, int from) {
        return new TextSearch(needle).indexOf(hay, from);
    }

    static boolean contains(String hay, String needle) {
        return indexOf(hay, needle, 0) >= 0;
    }

    /** {@code hay.indexOf(needle, from)}. */
    int indexOf(String hay, int from) {
        if (borders == null) {
            return hay.indexOf(needle, from);
        }
        int m = needle.length();
        int k = 0;
        for (int i = Math.max(from, 0), n = hay.length(); i < n; i++) {
            char c = hay.charAt(i);
            while (k > 0 && needle.charAt(k) != c) {
                k = borders[k - 1];
            }
            if (needle.charAt(k) == c && ++k == m) {
                return i - m + 1;
            }
        }
        return -1;
    }

    /** {@code hay.lastIndexOf(needle, from)}: the last match that starts at or before {@code from}. */
    int lastIndexOf(String hay, int from) {
        if (borders == null) {
            return hay.lastIndexOf(needle, from);
        }
        int m = needle.length();
        int start = Math.min(from, hay.length() - m);
        if (start < 0) {
            return -1;
        }
        if (reversedBorders == null) {
            reversedBorders = borders(needle, true);
        }
        int k = 0;
        for (int i = start + m - 1; i >= 0; i--) {
            char c = hay.charAt(i);
            while (k > 0 && needle.charAt(m - 1 - k) != c) {
                k = reversedBorders[k - 1];
            }
            if (needle.charAt(m - 1 - k) == c && ++k == m) {
                return i;
            }
        }
        return -1;
    }

    private static int[] borders(String p, boolean reversed) {
        int m = p.length();
        int[] b = new int[m];
        int k = 0;
        for (int i = 1; i < m; i++) {
            char c = at(p, i, reversed);
            while (k > 0 && at(p, k, reversed) != c) {
                k = b[k - 1];
            }
            if (at(p, k, reversed) == c) {
                k++;
            }
            b[i] = k;
        }
        return b;
    }

    private static char at(String p, int i, boolean reversed) {
        return p.charAt(reversed ? p.length() - 1 - i : i);
    }
}
