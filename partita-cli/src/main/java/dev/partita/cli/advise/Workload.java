package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the advisor replays: the planned throughput and data size, and the operations with their relative rates.
 *
 * <pre>{@code
 * {"throughput": 4000, "dataSizeGb": 8, "durationSeconds": 20,
 *  "hotspot": {"field": "tenantId", "value": "contoso", "share": 0.45},
 *  "operations": [
 *    {"name": "vehicle page", "type": "read", "rate": 100, "knows": ["id"]},
 *    {"name": "one make", "type": "query", "rate": 20,
 *     "query": "SELECT * FROM c WHERE c.make = @make", "parameters": {"@make": "make"}},
 *    {"name": "new listing", "type": "write", "rate": 5}]}
 * }</pre>
 * A query parameter names the sample field its value is taken from (of a randomly picked sample item); a read says
 * which fields the caller knows, which decides whether a candidate key makes it a point read or a query by id.
 */
public record Workload(int throughput, double dataSizeGb, int durationSeconds, Hotspot hotspot,
        List<Operation> operations) {

    /** A share of the operations that pick items with one value of one field (a hot tenant). */
    public record Hotspot(String field, String value, double share) {
    }

    public enum Type { READ, QUERY, WRITE }

    public record Operation(String name, Type type, double rate, List<String> knows, String query,
            Map<String, String> parameters) {
    }

    /** The sample fields the workload names: query parameters' sources, what reads know, the hot spot's field. */
    public java.util.Set<String> fields() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (Operation op : operations) {
            out.addAll(op.parameters().values());
            if (op.type() == Type.READ) {
                out.addAll(op.knows());
            }
        }
        if (hotspot != null) {
            out.add(hotspot.field());
        }
        return out;
    }

    public double totalRate() {
        return operations.stream().mapToDouble(Operation::rate).sum();
    }

    public static Workload read(Path file) throws IOException {
        return parse(new ObjectMapper().readTree(file.toFile()));
    }

    static Workload parse(JsonNode w) {
        List<Operation> ops = new ArrayList<>();
        for (JsonNode o : w.path("operations")) {
            Type type = Type.valueOf(o.path("type").asText("").toUpperCase(java.util.Locale.ROOT));
            List<String> knows = new ArrayList<>();
            o.path("knows").forEach(k -> knows.add(k.asText()));
            Map<String, String> params = new LinkedHashMap<>();
            o.path("parameters").properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
            ops.add(new Operation(o.path("name").asText(type.name().toLowerCase(java.util.Locale.ROOT)), type,
                    o.path("rate").asDouble(1), knows.isEmpty() ? List.of("id") : knows,
                    o.path("query").asText(null), params));
        }
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("the workload has no operations");
        }
        JsonNode h = w.path("hotspot");
        Hotspot hotspot = h.isObject() ? new Hotspot(h.path("field").asText(), h.path("value").asText(),
                h.path("share").asDouble()) : null;
        return new Workload(w.path("throughput").asInt(400), w.path("dataSizeGb").asDouble(1),
                w.path("durationSeconds").asInt(20), hotspot, ops);
    }
}
