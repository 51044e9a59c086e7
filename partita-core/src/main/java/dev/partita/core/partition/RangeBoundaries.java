package dev.partita.core.partition;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Split points for physical partitions: an even division of a definition's hash space (initial partitions) and the
 * middle of a range (splitting a range that holds no items to take a median from).
 *
 * <p>The even division follows the SDK's feed-range split ({@code FeedRangeInternal.trySplitWithHashV1/V2}):
 * <ul>
 *   <li>V2 and MultiHash: point {@code i} is {@code i * (0x3FFF..FF / n)} as 32 hex chars (MultiHash splits on the
 *       first level), so n=2 gives {@code "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"};</li>
 *   <li>V1 (and the legacy Range kind): point {@code i} is {@code i * (0xFFFFFFFF / n)} binary-encoded as a number,
 *       i.e. a prefix of the V1 EPKs whose hash is that value.</li>
 * </ul>
 */
public final class RangeBoundaries {

    private RangeBoundaries() {
    }

    /** The largest V2 hash: 16 bytes with the two top bits cleared. */
    static final BigInteger MAX_V2_HASH = BigInteger.ONE.shiftLeft(126).subtract(BigInteger.ONE);
    /** One past the largest V2 hash: where "FF" sits in the V2 hash space. */
    private static final BigInteger V2_SPACE = BigInteger.ONE.shiftLeft(126);
    static final long MAX_V1_HASH = 0xFFFFFFFFL;
    private static final int V2_BLOCK = 32;

    private static boolean usesV2(PartitionKeyDefinition def) {
        return def.kind() == PartitionKind.MULTI_HASH || (def.kind() == PartitionKind.HASH && def.version() == 2);
    }

    /**
     * {@code n - 1} split points, ascending, that divide the key space of {@code def} into {@code n} ranges of equal
     * hash width: {@code ["", p1), [p1, p2), ..., [p(n-1), "FF")}.
     */
    public static List<String> even(PartitionKeyDefinition def, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1");
        }
        List<String> points = new ArrayList<>(n - 1);
        if (usesV2(def)) {
            BigInteger step = MAX_V2_HASH.divide(BigInteger.valueOf(n));
            for (int i = 1; i < n; i++) {
                points.add(hex32(step.multiply(BigInteger.valueOf(i))));
            }
        } else {
            long step = MAX_V1_HASH / n;
            for (int i = 1; i < n; i++) {
                points.add(KeyEncoding.binaryNumberHex((double) (step * i)));
            }
        }
        return List.copyOf(points);
    }

    /** The {@code n} ranges of {@link #even}, tiling {@code ["", "FF")}. */
    public static List<EpkRange> evenRanges(PartitionKeyDefinition def, int n) {
        List<String> points = even(def, n);
        List<EpkRange> ranges = new ArrayList<>(n);
        String min = EffectivePartitionKey.MIN;
        for (String p : points) {
            ranges.add(new EpkRange(min, p));
            min = p;
        }
        ranges.add(new EpkRange(min, EffectivePartitionKey.MAX));
        return List.copyOf(ranges);
    }

    /**
     * A split point strictly inside {@code (minInclusive, maxExclusive)}, in the middle of the range's hash space:
     * <ul>
     *   <li>V2/MultiHash: the middle of the first 32-char level where the bounds differ (so a range inside one
     *       first-level prefix {@code [p, p+"FF")} is split on the second level), with "FF" standing for the end of
     *       the hash space;</li>
     *   <li>V1: the binary-encoded middle of the two bounds' hash numbers;</li>
     *   <li>otherwise, or when the hash space between the bounds is exhausted: the middle of the two strings read as
     *       hex fractions.</li>
     * </ul>
     *
     * @throws IllegalArgumentException if {@code minInclusive >= maxExclusive} or no string lies strictly between them
     *                                  (e.g. {@code "1F"} and {@code "1F00"})
     */
    public static String midpoint(PartitionKeyDefinition def, String minInclusive, String maxExclusive) {
        String min = minInclusive.toUpperCase(Locale.ROOT);
        String max = maxExclusive.toUpperCase(Locale.ROOT);
        if (min.compareTo(max) >= 0) {
            throw new IllegalArgumentException("minInclusive must be less than maxExclusive");
        }
        if (!isHex(min) || !isHex(max)) {
            throw new IllegalArgumentException("bounds must be hex strings");
        }
        String candidate = usesV2(def) ? midpointV2(min, max) : midpointV1(min, max);
        if (candidate != null && min.compareTo(candidate) < 0 && candidate.compareTo(max) < 0) {
            return candidate;
        }
        return midpointLexicographic(min, max);
    }

    private static String midpointV2(String min, String max) {
        int k = 0;
        while ((k + 1) * V2_BLOCK <= min.length() && (k + 1) * V2_BLOCK <= max.length()
                && min.regionMatches(k * V2_BLOCK, max, k * V2_BLOCK, V2_BLOCK)) {
            k++;
        }
        int off = k * V2_BLOCK;
        BigInteger lo = blockValue(min, off);
        String maxRest = max.substring(off);
        BigInteger hi = maxRest.startsWith(EffectivePartitionKey.MAX) ? V2_SPACE : blockValue(max, off);
        if (hi.compareTo(V2_SPACE) > 0) {
            hi = V2_SPACE;
        }
        if (hi.subtract(lo).compareTo(BigInteger.TWO) < 0) {
            return null;
        }
        BigInteger mid = lo.add(hi.subtract(lo).shiftRight(1));
        return min.substring(0, off) + hex32(mid);
    }

    /** The 32 hex chars at {@code off} (padded with zeros, or 0 if there are none) as a number. */
    private static BigInteger blockValue(String s, int off) {
        if (off >= s.length()) {
            return BigInteger.ZERO;
        }
        String block = s.substring(off, Math.min(s.length(), off + V2_BLOCK));
        if (block.length() < V2_BLOCK) {
            block = block + "0".repeat(V2_BLOCK - block.length());
        }
        return new BigInteger(block, 16);
    }

    private static String midpointV1(String min, String max) {
        long lo;
        if (min.isEmpty()) {
            lo = 0;
        } else {
            Double d = KeyEncoding.decodeLeadingNumber(min);
            if (d == null || d < 0 || d > MAX_V1_HASH) {
                return null;
            }
            lo = (long) Math.floor(d);
        }
        long hi;
        if (max.equals(EffectivePartitionKey.MAX)) {
            hi = MAX_V1_HASH + 1;
        } else {
            Double d = KeyEncoding.decodeLeadingNumber(max);
            if (d == null || d < 0) {
                return null;
            }
            hi = (long) Math.min(Math.ceil(d), MAX_V1_HASH + 1);
        }
        if (hi - lo < 2) {
            return null;
        }
        return KeyEncoding.binaryNumberHex((double) (lo + (hi - lo) / 2));
    }

    /**
     * The middle of two hex strings read as fractions; shorter strings are padded with zeros to one byte beyond the
     * longer one, which leaves room whenever any even-length string lies strictly between them.
     */
    static String midpointLexicographic(String min, String max) {
        int len = Math.max(min.length(), max.length()) + 2;
        if ((len & 1) == 1) {
            len++;
        }
        BigInteger a = new BigInteger("0" + min + "0".repeat(len - min.length()), 16);
        BigInteger b = new BigInteger("0" + max + "0".repeat(len - max.length()), 16);
        if (b.subtract(a).compareTo(BigInteger.TWO) < 0) {
            throw new IllegalArgumentException("no split point lies strictly inside the range");
        }
        String mid = a.add(b).shiftRight(1).toString(16).toUpperCase(Locale.ROOT);
        if (mid.length() < len) {
            mid = "0".repeat(len - mid.length()) + mid;
        }
        // drop trailing zero bytes while the point stays above min
        while (mid.length() >= 2 && mid.endsWith("00")) {
            String shorter = mid.substring(0, mid.length() - 2);
            if (min.compareTo(shorter) < 0) {
                mid = shorter;
            } else {
                break;
            }
        }
        if (min.compareTo(mid) >= 0 || mid.compareTo(max) >= 0) {
            throw new IllegalArgumentException("no split point lies strictly inside the range");
        }
        return mid;
    }

    static String hex32(BigInteger v) {
        String h = v.toString(16).toUpperCase(Locale.ROOT);
        return h.length() >= V2_BLOCK ? h : "0".repeat(V2_BLOCK - h.length()) + h;
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }
}
