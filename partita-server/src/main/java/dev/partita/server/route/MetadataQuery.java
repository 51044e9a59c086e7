package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Queries over databases, containers, offers, users and permissions — the ones SDKs send for {@code *IfNotExists}
 * helpers, throughput reads and listings, e.g. {@code SELECT * FROM root r WHERE r.id = @id} or
 * {@code select * from c where c.offerResourceId = @resourceId}.
 *
 * <p>Deliberately small: only a WHERE clause that is a conjunction ({@code AND}) of equalities between a top-level
 * property ({@code r.prop} or {@code r["prop"]}) and a parameter or literal is evaluated. Any other query returns every
 * resource of the feed (unfiltered), which is what a listing asks for. Document queries do not come here. The
 * patterns run on RE2/J, in time linear in the text: in a backtracking engine {@code \s+(order…)} took a second on
 * 16,000 spaces and grew with their square.
 */
final class MetadataQuery {
    private static final Pattern WHERE = Pattern.compile("(?is)\\bwhere\\b(.*)$");
    private static final Pattern TAIL = Pattern.compile("(?is)\\s+(order\\s+by|offset|group\\s+by)\\b.*$");
    private static final Pattern AND = Pattern.compile("(?i)\\s+and\\s+");
    private static final Pattern EQUALITY = Pattern.compile(
            "^\\(*\\s*\\w+\\s*(?:\\.\\s*(\\w+)|\\[\\s*[\"']([^\"']+)[\"']\\s*\\])\\s*=\\s*"
                    + "(@\\w+|\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|-?\\d+(?:\\.\\d+)?|true|false|null)\\s*\\)*$");

    private record Condition(String property, JsonNode value) {
    }

    private final List<Condition> conditions;

    private MetadataQuery(List<Condition> conditions) {
        this.conditions = conditions;
    }

    static MetadataQuery parse(byte[] body) {
        JsonNode spec = Json.parse(body, "query body");
        JsonNode text = spec.get("query");
        if (text == null || !text.isTextual()) {
            throw ServiceException.badRequest("The query body must be {\"query\": \"...\", \"parameters\": [...]}.");
        }
        Map<String, JsonNode> params = new HashMap<>();
        JsonNode ps = spec.get("parameters");
        if (ps != null && ps.isArray()) {
            for (JsonNode p : ps) {
                if (p.path("name").isTextual()) {
                    params.put(p.get("name").asText(), p.has("value") ? p.get("value") : null);
                }
            }
        }
        Matcher where = WHERE.matcher(text.asText().trim());
        if (!where.find()) {
            return new MetadataQuery(List.of());
        }
        String clause = TAIL.matcher(where.group(1).trim()).replaceFirst("").trim();
        List<Condition> out = new ArrayList<>();
        for (String part : AND.split(clause)) {
            Matcher m = EQUALITY.matcher(part.trim());
            if (!m.matches()) {
                return new MetadataQuery(List.of());
            }
            String prop = m.group(1) != null ? m.group(1) : m.group(2);
            String v = m.group(3);
            JsonNode value;
            if (v.startsWith("@")) {
                if (!params.containsKey(v)) {
                    throw ServiceException.badRequest("The query uses the parameter " + v + " but does not define it.");
                }
                value = params.get(v);
            } else if (v.startsWith("'")) {
                value = Json.NODES.textNode(v.substring(1, v.length() - 1).replace("\\'", "'").replace("\\\\", "\\"));
            } else {
                value = Json.parse(v, "query literal");
            }
            out.add(new Condition(prop, value));
        }
        return new MetadataQuery(out);
    }

    boolean matches(ObjectNode resource) {
        for (Condition c : conditions) {
            JsonNode actual = resource.get(c.property());
            if (actual == null || c.value() == null) {
                return false;
            }
            boolean same = actual.isNumber() && c.value().isNumber()
                    ? actual.doubleValue() == c.value().doubleValue()
                    : actual.equals(c.value());
            if (!same) {
                return false;
            }
        }
        return true;
    }
}
