package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.ContainerHandle;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.query.QueryPage;
import dev.partita.core.request.RequestOptions;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Document queries and feeds — the one place they reach the gateway:
 * <ul>
 *   <li>{@link #queryPlan}: {@code POST .../docs} with {@code x-ms-cosmos-is-query-plan-request: True} (query-plans.md);
 *   <li>{@link #query}: {@code POST .../docs} with {@code x-ms-documentdb-isquery: true} (or
 *       {@code Content-Type: application/query+json}), scoped by {@code x-ms-documentdb-partitionkeyrangeid},
 *       {@code x-ms-documentdb-partitionkey} or {@code x-ms-start-epk}/{@code x-ms-end-epk};
 *   <li>{@link #readFeed}: {@code GET .../docs} — the change feed when {@code A-IM} is present (handed to
 *       {@link ChangeFeedRoutes}; feeds-batch.md §1–3), else a plain read feed.
 * </ul>
 * Authentication and the intended-collection-rid check have run before these are called; the container's handle
 * checks the caller's scope and routes, admits, prices and charges.
 */
public final class QueryRoutes {
    private final ChangeFeedRoutes changeFeed = new ChangeFeedRoutes();
    /** The engine's clock: the metrics' execution time is read from it like every other time. */
    private final Clock clock;

    QueryRoutes(Clock clock) {
        this.clock = clock;
    }

    /** The query plan: the rewrite and the EPK ranges the SDK runs the query on (query-plans.md). */
    Reply queryPlan(Exchange ex, ContainerHandle container, RequestOptions o) {
        JsonNode body = Json.parse(ex.body(), "query body");
        return Reply.json(200, container.queryPlan(text(body), parameters(body.get("parameters")),
                features(ex.header(Hdr.SUPPORTED_QUERY_FEATURES)), o));
    }

    private static Set<String> features(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        Set<String> out = new HashSet<>();
        for (String f : header.split(",")) {
            if (!f.isBlank()) {
                out.add(f.trim());
            }
        }
        return out;
    }

    /** One page of a query on the scope the headers name. */
    Reply query(Exchange ex, ContainerHandle container, RequestOptions o) {
        JsonNode body = Json.parse(ex.body(), "query body");
        Instant started = clock.instant();
        boolean indexMetricsV2 = ex.flag(Hdr.POPULATE_INDEX_METRICS_V2);
        boolean indexMetrics = indexMetricsV2 || ex.flag(Hdr.POPULATE_INDEX_METRICS);
        String text = text(body);
        Map<String, JsonNode> params = parameters(body.get("parameters"));
        QueryPage page = indexMetrics ? container.queryWithIndexMetrics(text, params, o)
                : ex.flag(Hdr.WHOLE_CONTAINER_QUERY) ? container.query(text, params, o)
                : container.clientQuery(text, params, o);
        long nanos = Math.max(0, Duration.between(started, clock.instant()).toNanos());
        Reply r = page(container.info(), page);
        if (ex.flag(Hdr.POPULATE_QUERY_METRICS)) {
            r.header(Hdr.QUERY_METRICS, QueryMetricsHeader.of(page, nanos));
        }
        if (indexMetrics) {
            byte[] json = Json.bytes(page.indexUtilization().toJson());
            r.header(Hdr.INDEX_UTILIZATION, indexMetricsV2
                    ? URLEncoder.encode(new String(json, StandardCharsets.UTF_8), StandardCharsets.UTF_8)
                            .replace("+", "%20")
                    : Base64.getEncoder().encodeToString(json));
        }
        return r;
    }

    /** A read feed of the documents ({@code GET .../docs} without {@code A-IM}): {@code SELECT * FROM c}, paged. */
    Reply readFeed(Exchange ex, ContainerHandle container, RequestOptions o) {
        if (ex.header(Hdr.A_IM) != null) {
            return changeFeed.read(ex, container, o);
        }
        return page(container.info(), container.readFeed(o));
    }

    static String text(JsonNode body) {
        JsonNode text = body.get("query");
        if (text == null || !text.isTextual()) {
            throw ServiceException.badRequest("The query body must have a string 'query'.");
        }
        return text.asText();
    }

    private static Reply page(ContainerInfo c, QueryPage page) {
        ObjectNode out = Json.object();
        out.put("_rid", c.rid());
        ArrayNode docs = out.putArray("Documents");
        page.rows().forEach(docs::add);
        out.put("_count", page.rows().size());
        Reply r = Reply.json(200, out).charge(page.requestCharge())
                .header(Hdr.ITEM_COUNT, Integer.toString(page.rows().size()))
                .header(Hdr.SESSION_TOKEN, page.sessionToken());
        if (page.continuation() != null) {
            r.header(Hdr.CONTINUATION, page.continuation());
        }
        if (page.rangeId() != null) {
            r.header(Hdr.PARTITION_KEY_RANGE_ID, page.rangeId());
        }
        return Replies.itemPaths(r, c);
    }

    static Map<String, JsonNode> parameters(JsonNode params) {
        Map<String, JsonNode> out = new HashMap<>();
        if (params == null || params.isNull()) {
            return out;
        }
        if (!params.isArray()) {
            throw ServiceException.badRequest("The query's 'parameters' must be an array of {name, value}.");
        }
        for (JsonNode p : params) {
            JsonNode name = p.get("name");
            if (name == null || !name.isTextual() || !name.asText().startsWith("@")) {
                throw ServiceException.badRequest("Every query parameter needs a 'name' starting with '@'.");
            }
            out.put(name.asText(), p.has("value") ? p.get("value") : Json.NODES.nullNode());
        }
        return out;
    }
}
