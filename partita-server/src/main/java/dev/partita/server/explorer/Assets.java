package dev.partita.server.explorer;

import dev.partita.core.error.ServiceException;
import dev.partita.server.http.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The explorer's files, read once from the jar ({@code dev/partita/server/explorer/assets/}) and kept. Only flat names
 * of known types are looked up, so no path reaches outside the folder. Every answer carries a strict content security
 * policy (scripts, styles and connections only to this origin) and is revalidated on each load, so a new version of
 * Partita is picked up without a stale cache.
 */
final class Assets {
    private static final String BASE = "/dev/partita/server/explorer/assets/";
    private static final Pattern NAME = Pattern.compile("[a-z0-9-]+\\.(html|css|js|svg)");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml");
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private final Map<String, Optional<byte[]>> cache = new ConcurrentHashMap<>();

    Reply get(String name) {
        byte[] body = NAME.matcher(name).matches() ? cache.computeIfAbsent(name, Assets::load).orElse(null) : null;
        if (body == null) {
            throw ServiceException.notFound("The explorer has no file named like that.");
        }
        return Reply.status(200).body(body)
                .header("content-type", TYPES.get(name.substring(name.lastIndexOf('.') + 1)))
                .header("cache-control", "no-cache")
                .header("content-security-policy", CSP)
                .header("x-content-type-options", "nosniff")
                .header("referrer-policy", "no-referrer");
    }

    private static Optional<byte[]> load(String name) {
        try (InputStream in = Assets.class.getResourceAsStream(BASE + name)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
