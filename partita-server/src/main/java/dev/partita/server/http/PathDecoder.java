package dev.partita.server.http;

import dev.partita.core.error.ServiceException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a request target into path segments and percent-decodes each one on its own, so an encoded {@code %2F} stays
 * inside its segment and {@code +} stays {@code +} (ids and rids contain it; it is not a space in a path). Empty
 * segments (double and trailing slashes, which some SDKs send) are dropped.
 */
public final class PathDecoder {
    private PathDecoder() {
    }

    /**
     * The path part of a request target: without fragment, and without scheme and authority if given. A {@code ?} is
     * part of the path: the protocol has no query strings, and the JS SDK sends an item id containing {@code ?}
     * unencoded (it signs the whole id), so {@code /docs/a?b} names the item {@code a?b}.
     */
    public static String path(String uri) {
        String p = uri;
        int scheme = p.indexOf("://");
        if (scheme > 0 && scheme < p.indexOf('/') + 1) {
            int slash = p.indexOf('/', scheme + 3);
            p = slash < 0 ? "/" : p.substring(slash);
        }
        int h = p.indexOf('#');
        if (h >= 0) {
            p = p.substring(0, h);
        }
        return p;
    }

    public static List<String> segments(String path) {
        List<String> out = new ArrayList<>(6);
        int i = 0;
        int n = path.length();
        while (i < n) {
            int next = path.indexOf('/', i);
            if (next < 0) {
                next = n;
            }
            if (next > i) {
                out.add(decode(path, i, next));
            }
            i = next + 1;
        }
        return out;
    }

    static String decode(String s, int from, int to) {
        if (s.indexOf('%', from) < 0 || s.indexOf('%', from) >= to) {
            return s.substring(from, to);
        }
        byte[] buf = new byte[(to - from) * 3];
        int len = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= to) {
                    throw malformed();
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw malformed();
                }
                buf[len++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                buf[len++] = (byte) c;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                System.arraycopy(b, 0, buf, len, b.length);
                len += b.length;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, 0, len)).toString();
        } catch (CharacterCodingException e) {
            throw ServiceException.badRequest("The request path is not valid UTF-8 after percent-decoding.");
        }
    }

    private static ServiceException malformed() {
        return ServiceException.badRequest("The request path has a malformed percent-escape; use %XX with two hex"
                + " digits.");
    }

    /**
     * Percent-encodes a name path for {@code x-ms-alt-content-path}: each segment UTF-8 percent-encoded except
     * unreserved characters, slashes kept. The SDK decodes the header with a decoder that keeps {@code +}.
     */
    public static String encodePath(String path) {
        StringBuilder sb = new StringBuilder(path.length() + 8);
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~' || c == '/') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return sb.toString();
    }
}
