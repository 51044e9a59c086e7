package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.server.http.Exchange;
import java.util.List;

/**
 * Queries over databases, containers, offers, users, permissions and scripts: the ones SDKs send for
 * {@code *IfNotExists} helpers, throughput reads and listings (e.g. {@code SELECT * FROM root r WHERE r.id = @id}),
 * and any other a client writes. The engine runs them in the SQL of item queries over the resources' JSON
 * ({@link Engine#queryResources}), so a query that does not compile is the service's 400 and a filter with any
 * function or operator filters as it would over items. Document queries do not come here.
 */
final class MetadataQuery {
    private MetadataQuery() {
    }

    /** The rows the request's query selects from {@code all}. */
    static List<JsonNode> run(Engine engine, Exchange ex, List<? extends JsonNode> all) {
        JsonNode body = Json.parse(ex.body(), "query body");
        return engine.queryResources(all, QueryRoutes.text(body), QueryRoutes.parameters(body.get("parameters")));
    }
}
