package dev.partita.examples.tracking;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tracking service's small HTTP API (JDK {@code HttpServer}):
 * <ul>
 * <li>{@code GET /endpoints/{id}/failed?pageSize=&continuation=} — the endpoint's failed rows, newest first;</li>
 * <li>{@code POST /endpoints/{id}/purge} — {@code 202} with a status location, or {@code 409} while one runs;</li>
 * <li>{@code GET /purges/{purgeId}} — a purge's progress.</li>
 * </ul>
 * Every route answers {@code 503} while the layout guard is closed (the migration has not covered every legacy
 * container).
 */
public final class TrackingApi implements AutoCloseable {
    private static final Pattern FAILED = Pattern.compile("/endpoints/([^/]+)/failed");
    private static final Pattern PURGE = Pattern.compile("/endpoints/([^/]+)/purge");
    private static final Pattern STATUS = Pattern.compile("/purges/([^/]+)");
    private static final int DEFAULT_PAGE = 50;

    private final TrackingStore store;
    private final Purges purges;
    private final LayoutGuard guard;
    private final HttpServer server;
    private final ObjectMapper json = new ObjectMapper();

    public TrackingApi(TrackingStore store, Purges purges, LayoutGuard guard, int port) throws IOException {
        this.store = store;
        this.purges = purges;
        this.guard = guard;
        this.server = HttpServer.create(new InetSocketAddress("localhost", port), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public String baseUrl() {
        return "http://localhost:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String closed = guard.closedBecause();
            if (closed != null) {
                ex.getResponseHeaders().add("Retry-After", "60");
                send(ex, 503, Map.of("message", "The tracking store is being migrated: " + closed + "."));
                return;
            }
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            Matcher m;
            if ("GET".equals(method) && (m = FAILED.matcher(path)).matches()) {
                Map<String, String> q = query(ex.getRequestURI().getRawQuery());
                int pageSize = q.containsKey("pageSize") ? Integer.parseInt(q.get("pageSize")) : DEFAULT_PAGE;
                send(ex, 200, store.endpoint(m.group(1)).search(FailedMessage.FAILED, pageSize, q.get("continuation")));
            } else if ("POST".equals(method) && (m = PURGE.matcher(path)).matches()) {
                Purges.Started started = purges.start(m.group(1));
                ex.getResponseHeaders().add("Location", "/purges/" + started.status().id());
                if (started.started()) {
                    send(ex, 202, view(started.status()));
                } else {
                    send(ex, 409, Map.of("message", "A purge of this endpoint is already running.",
                            "status", "/purges/" + started.status().id()));
                }
            } else if ("GET".equals(method) && (m = STATUS.matcher(path)).matches()) {
                var status = purges.status(m.group(1));
                if (status.isPresent()) {
                    send(ex, 200, view(status.get()));
                } else {
                    send(ex, 404, Map.of("message", "No such purge."));
                }
            } else {
                send(ex, 404, Map.of("message", "No such resource."));
            }
        } catch (NumberFormatException e) {
            send(ex, 400, Map.of("message", "pageSize must be a number."));
        }
    }

    private static Map<String, Object> view(Purges.Status s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", s.id());
        out.put("endpointId", s.endpointId());
        out.put("state", s.state().name());
        out.put("deleted", s.deleted());
        out.put("startedAt", String.valueOf(s.startedAt()));
        out.put("finishedAt", s.finishedAt() == null ? null : s.finishedAt().toString());
        if (s.error() != null) {
            out.put("error", s.error());
        }
        return out;
    }

    private void send(HttpExchange ex, int status, Object body) throws IOException {
        byte[] bytes = json.writeValueAsBytes(body);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
