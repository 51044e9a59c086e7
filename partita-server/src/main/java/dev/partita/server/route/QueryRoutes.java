package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.query.QueryPage;
import dev.partita.core.query.QueryScope;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
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
 * Authentication, the resource-token scope, the intended-collection-rid and gone-range checks have run before these
 * are called; the container is resolved.
 */
public final class QueryRoutes {
    private final RouteContext ctx;
    private final ChangeFeedRoutes changeFeed;
    private final Metering metering;

    QueryRoutes(RouteContext ctx) {
        this.ctx = ctx;
        this.metering = new Metering(ctx.engine.capacity());
        this.changeFeed = new ChangeFeedRoutes(ctx, metering);
    }

    /** The query plan: the rewrite and the EPK ranges the SDK runs the query on (query-plans.md). */
    Reply queryPlan(Exchange ex, DatabaseInfo db, ContainerInfo c) {
        JsonNode body = Json.parse(ex.body(), "query body");
        JsonNode text = body.get("query");
        if (text == null || !text.isTextual()) {
            throw ServiceException.badRequest("The query body must have a string 'query'.");
        }
        return Reply.json(200, ctx.engine.queryPlan(c, text.asText(), parameters(body.get("parameters")),
                features(ex.header(Hdr.SUPPORTED_QUERY_FEATURES))))
                // computed by the gateway, not a partition: it draws on no partition's budget
                .charge(ctx.engine.capacity().costs().metadata());
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
    Reply query(Exchange ex, DatabaseInfo db, ContainerInfo c) {
        JsonNode body = Json.parse(ex.body(), "query body");
        JsonNode text = body.get("query");
        if (text == null || !text.isTextual()) {
            throw ServiceException.badRequest("The query body must have a string 'query'.");
        }
        Map<String, JsonNode> params = parameters(body.get("parameters"));
        QueryScope scope = scope(ex);
        QueryPage page = metering.run(ex, c, rangeOf(c, scope), () -> ctx.engine.query(c, scope, text.asText(),
                params, ex.header(Hdr.CONTINUATION), ex.intHeader(Hdr.MAX_ITEM_COUNT, -1)));
        return page(ex, c, scope, page);
    }

    /** A read feed of the documents ({@code GET .../docs} without {@code A-IM}): {@code SELECT * FROM c}, paged. */
    Reply readFeed(Exchange ex, DatabaseInfo db, ContainerInfo c) {
        if (ex.header(Hdr.A_IM) != null) {
            return changeFeed.read(ex, c);
        }
        QueryScope scope = scope(ex);
        QueryPage page = metering.run(ex, c, rangeOf(c, scope), () -> ctx.engine.query(c, scope, "SELECT * FROM c",
                Map.of(), ex.header(Hdr.CONTINUATION), ex.intHeader(Hdr.MAX_ITEM_COUNT, -1)));
        return page(ex, c, scope, page);
    }

    /** The physical partition a scoped request runs on (for admission), or null when it spans the container. */
    private static String rangeOf(ContainerInfo c, QueryScope scope) {
        try {
            if (scope.partitionKey() != null) {
                return Capacity.rangeOf(c, scope.partitionKey()).id();
            }
            if (scope.rangeId() != null && !scope.rangeId().isBlank()) {
                String id = scope.rangeId();
                return id.substring(id.lastIndexOf(',') + 1).trim();
            }
            if (scope.startEpk() != null) {
                return c.partitions().route(scope.startEpk()).id();
            }
        } catch (RuntimeException e) {
            // an invalid scope: the engine reports it
        }
        return null;
    }

    private Reply page(Exchange ex, ContainerInfo c, QueryScope scope, QueryPage page) {
        ObjectNode out = Json.object();
        out.put("_rid", c.rid());
        ArrayNode docs = out.putArray("Documents");
        page.rows().forEach(docs::add);
        out.put("_count", page.rows().size());
        String charged = page.rangeId() != null ? page.rangeId() : rangeOf(c, scope);
        // a page not scoped to one partition (never from the SDK, which sends one request per range) ran on all
        int touched = charged == null ? c.partitions().partitions().size() : 1;
        Reply r = metering.charged(Reply.json(200, out), ex, c, charged, page.work(), touched)
                .header(Hdr.ITEM_COUNT, Integer.toString(page.rows().size()));
        if (page.continuation() != null) {
            r.header(Hdr.CONTINUATION, page.continuation());
        }
        String rangeId = page.rangeId() != null ? page.rangeId() : c.partitions().partitions().get(0).id();
        r.header(Hdr.SESSION_TOKEN, rangeId + ":-1#" + ctx.engine.lsn(c));
        return Replies.itemPaths(r, c);
    }

    private static QueryScope scope(Exchange ex) {
        String pk = ex.header(Hdr.PARTITION_KEY);
        if (pk != null && !pk.isBlank()) {
            return QueryScope.partitionKey(PartitionKeyValue.fromHeader(pk));
        }
        return new QueryScope(ex.header(Hdr.PARTITION_KEY_RANGE_ID), ex.header(Hdr.START_EPK), ex.header(Hdr.END_EPK),
                null);
    }

    private static Map<String, JsonNode> parameters(JsonNode params) {
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
