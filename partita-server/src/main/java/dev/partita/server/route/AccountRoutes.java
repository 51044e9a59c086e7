package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.json.Json;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code GET /}: the database account. Its locations point back at the address the client used (the {@code Host}
 * header), so the SDK routes every request here whatever port the server got (protocol.md §1.2–1.3).
 */
final class AccountRoutes {
    /** The region name every location carries (the emulator's). */
    static final String REGION = "South Central US";
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.\\-:\\[\\]%]{1,255}");
    private static final String QUERY_ENGINE_CONFIGURATION = "{\"maxSqlQueryInputLength\":262144,\"maxJoinsPerSqlQuery\":5,"
            + "\"maxLogicalAndPerSqlQuery\":500,\"maxLogicalOrPerSqlQuery\":500,\"maxUdfRefPerSqlQuery\":10,"
            + "\"maxInExpressionItemsCount\":16000,\"queryMaxInMemorySortDocumentCount\":500,"
            + "\"maxQueryRequestTimeoutFraction\":0.9,\"sqlAllowNonFiniteNumbers\":false,\"sqlAllowAggregateFunctions\":true,"
            + "\"sqlAllowSubQuery\":true,\"sqlAllowScalarSubQuery\":true,\"allowNewKeywords\":true,\"sqlAllowLike\":true,"
            + "\"sqlAllowGroupByClause\":true,\"maxSpatialQueryCells\":12,\"spatialMaxGeometryPointCount\":256,"
            + "\"sqlDisableOptimizationFlags\":0,\"sqlAllowTop\":true,\"enableSpatialIndexing\":true}";

    /**
     * The attachment (media) quota and usage the service's account read reports in headers, which the SDKs expose as
     * {@code maxMediaStorageUsageInMB} and {@code currentMediaStorageUsageInMB} (the values of the JS SDK's recorded
     * service responses). Partita stores no attachments: the usage stays 0.
     */
    private static final String MAX_MEDIA_STORAGE_MB = "10240";
    private static final String MEDIA_STORAGE_MB = "0";

    private final Supplier<String> fallbackHost;
    private final Capacity capacity;

    /**
     * @param fallbackHost {@code host:port} to advertise when a request carries no usable Host header
     * @param capacity     the account's settings the account read reports (its default consistency)
     */
    AccountRoutes(Supplier<String> fallbackHost, Capacity capacity) {
        this.fallbackHost = fallbackHost;
        this.capacity = capacity;
    }

    Reply handle(Exchange ex) {
        if (!ex.method().equals(HttpMethod.GET) && !ex.method().equals(HttpMethod.HEAD)) {
            throw Replies.methodNotAllowed(ex);
        }
        String host = ex.header(HttpHeaderNames.HOST);
        if (host == null || !HOST.matcher(host).matches()) {
            host = fallbackHost.get();
        }
        String endpoint = (ex.secure() ? "https://" : "http://") + host + "/";
        ObjectNode o = Json.object();
        o.put("_self", "");
        o.put("id", "partita");
        o.put("_rid", "partita.documents.azure.com");
        o.put("media", "//media/");
        o.put("addresses", "//addresses/");
        o.put("_dbs", "//dbs/");
        location(o.putArray("writableLocations"), endpoint);
        location(o.putArray("readableLocations"), endpoint);
        o.put("enableMultipleWriteLocations", false);
        ObjectNode repl = o.putObject("userReplicationPolicy");
        repl.put("asyncReplication", false);
        repl.put("minReplicaSetSize", 1);
        repl.put("maxReplicasetSize", 4);
        o.putObject("userConsistencyPolicy")
                .put("defaultConsistencyLevel", capacity.defaultConsistency().wireName());
        ObjectNode sys = o.putObject("systemReplicationPolicy");
        sys.put("minReplicaSetSize", 1);
        sys.put("maxReplicasetSize", 4);
        ObjectNode read = o.putObject("readPolicy");
        read.put("primaryReadCoefficient", 1);
        read.put("secondaryReadCoefficient", 1);
        // a JSON *string*, not an object: the SDK parses it lazily
        o.put("queryEngineConfiguration", QUERY_ENGINE_CONFIGURATION);
        Reply reply = Reply.json(200, o);
        reply.header(Hdr.MAX_MEDIA_STORAGE_USAGE_MB, MAX_MEDIA_STORAGE_MB);
        reply.header(Hdr.MEDIA_STORAGE_USAGE_MB, MEDIA_STORAGE_MB);
        return reply;
    }

    private static void location(ArrayNode list, String endpoint) {
        ObjectNode l = list.addObject();
        l.put("name", REGION);
        l.put("databaseAccountEndpoint", endpoint);
    }
}
