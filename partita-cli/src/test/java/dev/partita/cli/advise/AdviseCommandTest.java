package dev.partita.cli.advise;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The advisor on the two workloads of the design records: the catalogue (seed 003) must get {@code /make}, the
 * hot-tenant shipments (seed 004) {@code /tenantId + /shipmentId}, for the records' reasons.
 */
class AdviseCommandTest {
    @TempDir
    Path dir;

    @Test
    void theCatalogueGetsMakeBecauseItIsEvenAndTheFirstFilter() throws IOException {
        Path sample = write("catalogue.jsonl", catalogue(400));
        Path workload = Files.writeString(dir.resolve("catalogue.json"), """
                {"throughput": 1000, "dataSizeGb": 0.08, "durationSeconds": 2,
                 "operations": [
                   {"name": "vehicle page", "type": "read", "rate": 60, "knows": ["id", "make"]},
                   {"name": "one make, ending soonest", "type": "query", "rate": 30,
                    "query": "SELECT * FROM c WHERE c.make = @make ORDER BY c.ends_at", "parameters": {"@make": "make"}},
                   {"name": "one province", "type": "query", "rate": 5,
                    "query": "SELECT * FROM c WHERE c.province = @p", "parameters": {"@p": "province"}},
                   {"name": "new listing", "type": "write", "rate": 5}]}
                """);
        JsonNode advice = adviseJson(sample, workload);
        assertThat(advice.path("recommended").asText()).isEqualTo("/make");
        JsonNode make = candidate(advice, "/make");
        assertThat(make.path("largestShare").asDouble()).isLessThan(0.15);
        assertThat(make.at("/operations/one make, ending soonest/access").asText()).isEqualTo("single partition");
        assertThat(make.at("/operations/vehicle page/access").asText()).isEqualTo("point");
        assertThat(make.at("/operations/one province/access").asText()).isEqualTo("fan-out");
        // the record's rejected keys: one value holds about half the data
        for (String skewed : List.of("/body_style", "/province", "/title_status")) {
            assertThat(candidate(advice, skewed).path("largestShare").asDouble()).as(skewed).isGreaterThan(0.3);
            assertThat(candidate(advice, skewed).path("reasons").toString()).contains("skewed");
        }
        // /id spreads perfectly but makes the make query a fan-out
        assertThat(candidate(advice, "/id").at("/operations/one make, ending soonest/access").asText())
                .isEqualTo("fan-out");
    }

    @Test
    void theHotTenantGetsTenantThenShipmentBecauseTenantAloneBreaksTheLogicalPartitionLimit() throws IOException {
        Path sample = write("shipments.jsonl", shipments(400));
        Path workload = Files.writeString(dir.resolve("shipments.json"), """
                {"throughput": 120000, "dataSizeGb": 60, "durationSeconds": 1,
                 "hotspot": {"field": "tenantId", "value": "contoso", "share": 0.45},
                 "operations": [
                   {"name": "track shipment", "type": "query", "rate": 200,
                    "query": "SELECT * FROM c WHERE c.tenantId = @t AND c.shipmentId = @s",
                    "parameters": {"@t": "tenantId", "@s": "shipmentId"}},
                   {"name": "tenant's shipments", "type": "query", "rate": 10,
                    "query": "SELECT * FROM c WHERE c.tenantId = @t", "parameters": {"@t": "tenantId"}},
                   {"name": "status update", "type": "write", "rate": 100}]}
                """);
        JsonNode advice = adviseJson(sample, workload);
        assertThat(advice.path("recommended").asText()).isEqualTo("/tenantId + /shipmentId");
        JsonNode tenant = candidate(advice, "/tenantId");
        assertThat(tenant.path("fitsLogicalPartitionLimit").asBoolean()).isFalse();
        assertThat(tenant.path("projectedLargestGb").asDouble()).isGreaterThan(20);
        JsonNode winner = candidate(advice, "/tenantId + /shipmentId");
        assertThat(winner.at("/operations/track shipment/access").asText()).isEqualTo("single partition");
        assertThat(winner.at("/operations/tenant's shipments/access").asText()).isEqualTo("prefix");
        assertThat(advice.path("whatGetsWorse").toString()).contains("tenant's shipments\\\" is prefix")
                .contains("/tenantId would make it single partition").contains("breaks the logical partition limit");
    }

    @Test
    void textAndHtmlReportsNameTheWinner() throws IOException {
        Path sample = write("c.jsonl", catalogue(200));
        Path workload = Files.writeString(dir.resolve("w.json"), """
                {"throughput": 400, "dataSizeGb": 0.01, "durationSeconds": 1,
                 "operations": [{"name": "one make", "type": "query", "rate": 20,
                    "query": "SELECT * FROM c WHERE c.make = @m", "parameters": {"@m": "make"}}]}
                """);
        String text = run("--sample", sample.toString(), "--workload", workload.toString(), "--candidates",
                "/make,/id");
        assertThat(text).contains("Recommended: /make").contains("one make: single partition");
        Path html = dir.resolve("advice.html");
        run("--sample", sample.toString(), "--workload", workload.toString(), "--candidates", "/make,/id",
                "--format", "html", "--out", html.toString());
        assertThat(Files.readString(html)).startsWith("<!doctype html>").contains("<b>/make</b>").contains("<svg");
    }

    private JsonNode adviseJson(Path sample, Path workload) {
        return Json.parse(run("--sample", sample.toString(), "--workload", workload.toString(), "--format", "json"),
                "advice");
    }

    private static String run(String... args) {
        AdviseCommand command = new AdviseCommand();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        command.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new CommandLine(command).setErr(new java.io.PrintWriter(err, true)).execute(args);
        assertThat(code).as(err.toString()).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static JsonNode candidate(JsonNode advice, String key) {
        for (JsonNode c : advice.path("candidates")) {
            if (c.path("key").asText().equals(key)) {
                return c;
            }
        }
        throw new AssertionError("no candidate " + key + " in " + advice.path("candidates").findValuesAsText("key"));
    }

    private Path write(String name, List<ObjectNode> items) throws IOException {
        return Files.write(dir.resolve(name), items.stream().map(ObjectNode::toString).toList());
    }

    /** Vehicles as seed 003 describes them: 15 makes, the largest about 9%; three fields with one value near half. */
    static List<ObjectNode> catalogue(int n) {
        String[] makes = {"Toyota", "Ford", "Honda", "Chevrolet", "Nissan", "Hyundai", "Kia", "Mazda", "Subaru",
                "Volkswagen", "BMW", "Mercedes-Benz", "Jeep", "Dodge", "GMC"};
        int[] weights = {9, 8, 8, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 5, 5};
        Random r = new Random(3);
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ObjectNode v = Json.object();
            v.put("id", String.format("v%06d", i));
            int x = r.nextInt(100);
            int m = 0;
            while (x >= weights[m]) {
                x -= weights[m++];
            }
            v.put("make", makes[m]);
            v.put("body_style", half(r, "Sedan", "SUV", "Pickup", "Hatchback", "Coupe", "Minivan"));
            v.put("province", half(r, "ON", "QC", "BC", "AB", "MB", "SK", "NS"));
            v.put("title_status", half(r, "Clean", "Rebuilt", "Salvage", "Lien", "Unknown", "Flood"));
            v.put("price", 1_500 + r.nextInt(60_000));
            v.put("ends_at", "2026-09-" + String.format("%02d", 1 + r.nextInt(28)) + "T12:00:00Z");
            v.put("description", "One owner, service records available, minor wear consistent with age.");
            out.add(v);
        }
        return out;
    }

    private static String half(Random r, String... values) {
        return r.nextBoolean() ? values[0] : values[1 + r.nextInt(values.length - 1)];
    }

    /** Shipments of seed 004: 30 tenants, Contoso with 40% of them. */
    static List<ObjectNode> shipments(int n) {
        String[] statuses = {"created", "in_transit", "delayed", "delivered", "exception"};
        Random r = new Random(4);
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ObjectNode s = Json.object();
            String shipment = String.format("shp-%06d", i);
            s.put("id", "doc-" + shipment);
            s.put("tenantId", r.nextInt(100) < 40 ? "contoso" : "tenant-" + r.nextInt(29));
            s.put("shipmentId", shipment);
            s.put("status", statuses[r.nextInt(statuses.length)]);
            s.put("createdAt", 1_700_000_000L + r.nextInt(10_000_000));
            out.add(s);
        }
        return out;
    }
}
