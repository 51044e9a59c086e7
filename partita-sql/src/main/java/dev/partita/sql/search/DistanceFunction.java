package dev.partita.sql.search;

import java.util.Locale;

/** The similarity measures of a vector embedding policy and of {@code VectorDistance}'s options. */
public enum DistanceFunction {
    COSINE, DOTPRODUCT, EUCLIDEAN;

    /** The value as written in a policy or in the options object (any case), or null when it names none. */
    public static DistanceFunction parse(String text) {
        if (text == null) {
            return null;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "cosine" -> COSINE;
            case "dotproduct" -> DOTPRODUCT;
            case "euclidean" -> EUCLIDEAN;
            default -> null;
        };
    }

    /** The policy spelling. */
    public String policyName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Cosine and dot product are similarities (larger is closer); Euclidean is a distance (smaller is closer). */
    public boolean higherIsCloser() {
        return this != EUCLIDEAN;
    }

    /** The value {@code VectorDistance} returns for two vectors of the same length. */
    public double apply(float[] a, float[] b) {
        return switch (this) {
            case DOTPRODUCT -> dot(a, b);
            case EUCLIDEAN -> Math.sqrt(squaredDistance(a, b));
            case COSINE -> {
                double na = Math.sqrt(dot(a, a));
                double nb = Math.sqrt(dot(b, b));
                yield na == 0 || nb == 0 ? 0 : dot(a, b) / (na * nb);
            }
        };
    }

    /** The value with "closer" always larger: what ORDER BY sorts on, descending. */
    public double closeness(float[] a, float[] b) {
        double v = apply(a, b);
        return higherIsCloser() ? v : -v;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    private static double squaredDistance(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = (double) a[i] - b[i];
            s += d * d;
        }
        return s;
    }
}
