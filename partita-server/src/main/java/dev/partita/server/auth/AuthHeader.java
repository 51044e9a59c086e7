package dev.partita.server.auth;

import java.nio.charset.StandardCharsets;

/**
 * The parsed {@code authorization} header: {@code type=<master|resource|aad>&ver=<v>&sig=<signature or token part>},
 * URL-encoded once by the SDKs. Decoding is percent-decoding only: a {@code +} in a base64 signature stays a {@code +}
 * (a form decoder would turn it into a space).
 */
public record AuthHeader(String type, String version, String signature) {

    /** Parses the header; null when it is absent or not of the {@code type=...&sig=...} shape. */
    public static AuthHeader parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        String decoded = percentDecode(raw.trim());
        if (decoded == null) {
            return null;
        }
        String type = null;
        String ver = null;
        String sig = null;
        for (String part : decoded.split("&")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String k = part.substring(0, eq).trim();
            String v = part.substring(eq + 1);
            // equalsIgnoreCase, not a switch on the lower-cased key: no copy of each key per request
            if (k.equalsIgnoreCase("type")) {
                type = v.trim();
            } else if (k.equalsIgnoreCase("ver")) {
                ver = v.trim();
            } else if (k.equalsIgnoreCase("sig")) {
                sig = v;
            }
        }
        if (type == null || sig == null || sig.isEmpty()) {
            return null;
        }
        return new AuthHeader(type.toLowerCase(java.util.Locale.ROOT), ver, sig);
    }

    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        // each escape decodes to one byte and each other char to its UTF-8 form, at most 3 bytes (surrogates,
        // encoded one char at a time, become one '?'): 3 bytes a char is always enough
        byte[] out = new byte[3 * s.length()];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                out[n++] = (byte) c;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                System.arraycopy(b, 0, out, n, b.length);
                n += b.length;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }
}
