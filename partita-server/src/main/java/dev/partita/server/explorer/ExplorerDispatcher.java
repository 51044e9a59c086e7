package dev.partita.server.explorer;

import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.server.auth.Authenticator;
import dev.partita.server.http.Dispatcher;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * Serves {@code /_explorer/...} (the page and its assets, and {@code /_explorer/api/...}) and hands every other
 * request to the next dispatcher:
 *
 * <pre>
 * /_explorer                                      301 to /_explorer/ (the modules load relative to it)
 * /_explorer/                                     index.html
 * /_explorer/{asset}                              a file of the page (Assets)
 * /_explorer/api/dbs/{db}/colls/{c}/partitions    the heat map's statistics (PartitionsApi, signed)
 * </pre>
 */
public final class ExplorerDispatcher implements Dispatcher {
    /** The path the explorer is served under. */
    public static final String PATH = "/_explorer/";
    static final String SEGMENT = "_explorer";
    private final Dispatcher next;
    private final Assets assets = new Assets();
    private final PartitionsApi api;

    public ExplorerDispatcher(Engine engine, Authenticator authenticator, Dispatcher next) {
        this.next = next;
        this.api = new PartitionsApi(engine, authenticator);
    }

    @Override
    public Reply handle(Exchange ex) {
        List<String> s = ex.segments();
        if (s.isEmpty() || !s.get(0).equals(SEGMENT)) {
            return next.handle(ex);
        }
        if (!ex.method().equals(HttpMethod.GET) && !ex.method().equals(HttpMethod.HEAD)) {
            throw new ServiceException(405, 0, "The explorer's resources are read with GET.");
        }
        if (s.size() > 1 && s.get(1).equals("api")) {
            return api.handle(ex, s.subList(2, s.size()));
        }
        if (s.size() == 1) {
            return ex.rawPath().endsWith("/") ? assets.get("index.html")
                    : Reply.status(301).header("location", PATH);
        }
        if (s.size() == 2) {
            return assets.get(s.get(1));
        }
        throw ServiceException.notFound("The explorer has no such resource.");
    }

    @Override
    public Reply handleWithoutWaiting(Exchange ex) {
        List<String> s = ex.segments();
        return s.isEmpty() || !s.get(0).equals(SEGMENT) ? next.handleWithoutWaiting(ex) : null;
    }
}
