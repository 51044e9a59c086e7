package dev.partita.server.route;

import dev.partita.core.error.ServiceException;
import dev.partita.server.http.PathDecoder;

/**
 * For tests that build raw requests: the resource type and link a client signs for a request path, exactly as the
 * gateway derives them (one home: {@link ResourcePath}). A path the gateway does not understand is answered 404 before
 * authentication, so any signature does for it.
 */
public final class SigningLinks {
    private SigningLinks() {
    }

    /** {@code {type, link}}, or {@code {"", ""}} for a path that names no resource. */
    public static String[] of(String rawPath) {
        try {
            ResourcePath p = ResourcePath.of(PathDecoder.segments(PathDecoder.path(rawPath)));
            return new String[] {p.authType(), p.authLink()};
        } catch (ServiceException | IllegalArgumentException e) {
            return new String[] {"", ""};
        }
    }
}
