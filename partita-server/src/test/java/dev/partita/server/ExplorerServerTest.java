package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The explorer's resources on the API's port: its page and assets (to anyone, under a strict content security
 * policy, nothing outside its folder), and the heat map's statistics (only with an account-key signature).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExplorerServerTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String STATS = "/_explorer/api/dbs/shop/colls/orders/partitions";
    TestServers t;
    CosmosClient admin;
    RawClient raw;

    @BeforeAll
    void start() {
        t = TestServers.http();
        admin = t.client();
        raw = new RawClient(t.server.endpoint());
        admin.createDatabase("shop");
        admin.getDatabase("shop").createContainer("orders", "/tenant");
        CosmosContainer orders = admin.getDatabase("shop").getContainer("orders");
        orders.createItem(JSON.createObjectNode().put("id", "o1").put("tenant", "acme-secret"));
    }

    @AfterAll
    void stop() {
        admin.close();
        t.close();
    }

    HttpResponse<String> get(String path) {
        return raw.call("GET", path).unsigned().send();
    }

    @Test
    void thePageIsServedUnderAStrictContentSecurityPolicy() {
        HttpResponse<String> redirect = get("/_explorer");
        assertThat(redirect.statusCode()).isEqualTo(301);
        assertThat(redirect.headers().firstValue("location")).hasValue("/_explorer/");
        HttpResponse<String> page = get("/_explorer/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("content-security-policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("script-src 'self'").contains("connect-src 'self'")
                        .doesNotContain("unsafe-inline"));
        assertThat(page.body()).contains("<script type=\"module\" src=\"app.js\"></script>");
        HttpResponse<String> module = get("/_explorer/heatmap.js");
        assertThat(module.headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
        assertThat(module.body()).contains("export function heatmapView");
    }

    @Test
    void nothingOutsideTheAssetFolderIsReachable() {
        for (String path : new String[] {"/_explorer/..%2F..%2FPartitaServer.class", "/_explorer/Assets.class",
                "/_explorer/missing.js", "/_explorer/a/b.js", "/_explorer/%2e%2e%2fapp.js"}) {
            assertThat(get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(raw.call("POST", "/_explorer/").unsigned().body("{}").send().statusCode()).isEqualTo(405);
    }

    @Test
    void theStatisticsNeedAnAccountKeySignature() throws Exception {
        assertThat(get(STATS).statusCode()).isEqualTo(401);
        // a signature for another container's read does not open this one
        assertThat(raw.call("GET", STATS).signed("colls", "dbs/shop/colls/other").send().statusCode()).isEqualTo(401);

        HttpResponse<String> ok = raw.call("GET", STATS).signed("colls", "dbs/shop/colls/orders").send();
        assertThat(ok.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(ok.body());
        assertThat(body.get("partitions")).hasSize(1);
        assertThat(body.get("partitions").get(0).get("ru")).hasSize(120);
        assertThat(body.get("topBySize").get(0).get("partitionKey").get(0).asText()).isEqualTo("acme-secret");
        assertThat(body.get("topByRu").get(0).get("partitionKey").get(0).asText()).isEqualTo("acme-secret");

        raw.key = Keys.emulator().readOnlyPrimary();
        try {
            assertThat(raw.call("GET", STATS).signed("colls", "dbs/shop/colls/orders").send().statusCode())
                    .as("a read-only key reads statistics too").isEqualTo(200);
        } finally {
            raw.key = Keys.EMULATOR_PRIMARY;
        }
    }

    @Test
    void aQueryReportsIndexUseWhenAskedForItsMetrics() {
        RawClient.Call q = raw.call("POST", "/dbs/shop/colls/orders/docs").signed("docs", "dbs/shop/colls/orders")
                .header("x-ms-documentdb-isquery", "True").header("Content-Type", "application/query+json")
                .header("x-ms-documentdb-query-enablecrosspartition", "True")
                .body("{\"query\":\"SELECT * FROM c WHERE c.tenant = 'acme-secret'\",\"parameters\":[]}");
        assertThat(q.send().headers().firstValue("x-ms-documentdb-query-metrics")).as("only when asked").isEmpty();
        HttpResponse<String> r = q.header("x-ms-documentdb-populatequerymetrics", "true").send();
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("x-ms-documentdb-query-metrics")).hasValueSatisfying(m -> assertThat(m)
                .contains("retrievedDocumentCount=1;").contains("outputDocumentCount=1;")
                .contains("indexHitDocumentCount=1;").endsWith("indexUtilizationRatio=1.00"));
        // every key of the service's header, in its order, as the SDK's own parser reads them
        String metrics = r.headers().firstValue("x-ms-documentdb-query-metrics").orElseThrow();
        assertThat(metrics.replaceAll("=[0-9.]+", "")).isEqualTo("totalExecutionTimeInMs;queryCompileTimeInMs;"
                + "queryLogicalPlanBuildTimeInMs;queryPhysicalPlanBuildTimeInMs;queryOptimizationTimeInMs;"
                + "VMExecutionTimeInMs;indexLookupTimeInMs;documentLoadTimeInMs;systemFunctionExecuteTimeInMs;"
                + "userFunctionExecuteTimeInMs;retrievedDocumentCount;retrievedDocumentSize;outputDocumentCount;"
                + "outputDocumentSize;writeOutputTimeInMs;indexHitDocumentCount;indexUtilizationRatio");
        var parsed = com.azure.cosmos.implementation.QueryMetrics.createFromDelimitedString(metrics);
        assertThat(parsed.getRetrievedDocumentCount()).isEqualTo(1);
        assertThat(parsed.getOutputDocumentCount()).isEqualTo(1);
    }

    @Test
    void aResourceTokenGetsNoPartitionKeyValues() {
        admin.getDatabase("shop").createUser(new CosmosUserProperties().setId("viewer"));
        String token;
        try (var async = t.asyncClient()) {
            token = async.getDatabase("shop").getUser("viewer").upsertPermission(new CosmosPermissionProperties()
                    .setId("read-orders").setPermissionMode(PermissionMode.READ).setContainerName("orders"), null)
                    .block().getProperties().getToken();
        }
        HttpResponse<String> r = raw.call("GET", STATS).unsigned()
                .header("authorization", URLEncoder.encode(token, StandardCharsets.UTF_8)).send();
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).doesNotContain("acme-secret");
    }
}
