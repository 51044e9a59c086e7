package dev.partita.sql.search;

import java.util.Locale;

/** The element types of a vector embedding policy. A value outside the type's range is not a vector of it. */
public enum VectorDataType {
    FLOAT32, FLOAT16, INT8, UINT8;

    /** The value as written in a policy or in the options object (any case), or null when it names none. */
    public static VectorDataType parse(String text) {
        if (text == null) {
            return null;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "float32" -> FLOAT32;
            case "float16" -> FLOAT16;
            case "int8" -> INT8;
            case "uint8" -> UINT8;
            default -> null;
        };
    }

    /** The policy spelling. */
    public String policyName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The element as this type stores it, or NaN when the type cannot hold it. */
    public float convert(double v) {
        return switch (this) {
            case FLOAT32 -> (float) v;
            case FLOAT16 -> Float.float16ToFloat(Float.floatToFloat16((float) v));
            case INT8 -> v == Math.rint(v) && v >= -128 && v <= 127 ? (float) v : Float.NaN;
            case UINT8 -> v == Math.rint(v) && v >= 0 && v <= 255 ? (float) v : Float.NaN;
        };
    }
}
