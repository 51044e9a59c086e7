package dev.partita.core.script;

import dev.partita.core.limits.Limits;

/** The three kinds of server-side script, with their REST names, feed keys, rid type bytes and quotas. */
public enum ScriptKind {
    STORED_PROCEDURE("sprocs", "StoredProcedures", "stored procedure", (byte) 1, 0x80),
    TRIGGER("triggers", "Triggers", "trigger", (byte) 2, 0x70),
    USER_DEFINED_FUNCTION("udfs", "UserDefinedFunctions", "user-defined function", (byte) 3, 0x60);

    private final String path;
    private final String feedKey;
    private final String noun;
    private final byte tag;
    private final int ridType;

    ScriptKind(String path, String feedKey, String noun, byte tag, int ridType) {
        this.path = path;
        this.feedKey = feedKey;
        this.noun = noun;
        this.tag = tag;
        this.ridType = ridType;
    }

    /** The path segment: {@code sprocs}, {@code triggers}, {@code udfs}. */
    public String path() {
        return path;
    }

    /** The array key of a feed of this kind. */
    public String feedKey() {
        return feedKey;
    }

    /** How messages name it. */
    public String noun() {
        return noun;
    }

    /** The store's tag for this kind. */
    byte tag() {
        return tag;
    }

    /** The type byte of a rid of this kind (protocol.md: the high nibble of byte 15: 8 sproc, 7 trigger, 6 udf). */
    int ridType() {
        return ridType;
    }

    /** How many of this kind a container may hold. */
    int quota(Limits limits) {
        return switch (this) {
            case STORED_PROCEDURE -> limits.maxStoredProcedures();
            case TRIGGER -> limits.maxTriggers();
            case USER_DEFINED_FUNCTION -> limits.maxUserDefinedFunctions();
        };
    }

    /** The kind a path segment names, or null. */
    public static ScriptKind ofPath(String segment) {
        for (ScriptKind k : values()) {
            if (k.path.equals(segment)) {
                return k;
            }
        }
        return null;
    }
}
