package dev.partita.core.account;

import dev.partita.core.error.ServiceException;

/** The service's rules for resource ids (databases, containers, items). Messages never echo the id itself. */
public final class ResourceNames {
    private ResourceNames() {
    }

    /** Validates a database, container or user id: 1..maxChars characters, none of {@code / \ # ?}, no trailing space. */
    public static void validateResourceId(String id, String kind, int maxChars) {
        if (id == null || id.isEmpty()) {
            throw ServiceException.badRequest("The " + kind + " id is missing or empty; set a non-empty string 'id'.");
        }
        if (id.length() > maxChars) {
            throw ServiceException.badRequest("The " + kind + " id is " + id.length() + " characters long; the limit is "
                    + maxChars + ".");
        }
        checkCharacters(id, kind);
        if (id.endsWith(" ")) {
            throw ServiceException.badRequest("The " + kind + " id ends with a space, which the service does not allow.");
        }
    }

    /**
     * Validates an item id in a body: 1..maxBytes UTF-8 bytes, no {@code \}. The documented rule restricts
     * {@code / \ # ?}, but the service refuses only a backslash: an item whose id has {@code /}, {@code #} or
     * {@code ?} is created (201), and a point operation then names it in the path, where {@code /} splits the id into
     * path segments (404) — the Java SDK's {@code CosmosItemIdEncodingTest} records these answers.
     */
    public static void validateItemId(String id, int maxBytes) {
        if (id.isEmpty()) {
            throw ServiceException.badRequest("The item id is empty; 'id' must be a non-empty string.");
        }
        int bytes = utf8Length(id);
        if (bytes > maxBytes) {
            throw ServiceException.badRequest("The item id is " + bytes + " bytes long in UTF-8; the limit is "
                    + maxBytes + " bytes.");
        }
        checkItemIdCharacters(id);
    }

    /** 400 for an item id, in a body or a request path, with a character the service refuses in item ids. */
    public static void checkItemIdCharacters(String id) {
        int i = id.indexOf('\\');
        if (i >= 0) {
            throw ServiceException.badRequest("The item id contains the character '\\' at position " + i
                    + "; item ids must not contain '\\'.");
        }
    }

    private static void checkCharacters(String id, String kind) {
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '/' || c == '\\' || c == '#' || c == '?') {
                throw ServiceException.badRequest("The " + kind + " id contains the character '" + c
                        + "' at position " + i + "; ids must not contain '/', '\\', '#' or '?'.");
            }
        }
    }

    private static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

}
