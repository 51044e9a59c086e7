package dev.partita.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.PartitionTxn;
import dev.partita.core.item.StoredItem;
import dev.partita.core.json.Json;
import dev.partita.core.request.Conditions;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The collection operations of one stored procedure or trigger execution, on the logical partition's
 * {@link PartitionTxn}: documents by name or {@code _rid} link, queries with paging, etag conditions, and the
 * bounded-execution rule — once the accept window has passed, or the work priced so far exceeds what the partition's
 * budget affords, further operations are not accepted (they answer false and never run). The caller commits the
 * transaction unless the budget ran out ({@link #outOfBudget()}: the service's 429, nothing applied).
 */
public final class ScriptExecution implements ScriptHost {
    private static final String NOT_ACCEPTED = "{\"accepted\":false}";
    /** The server-side API's default page size for readDocuments and queryDocuments. */
    private static final int DEFAULT_PAGE_SIZE = 100;

    private final ContainerInfo c;
    private final PartitionTxn txn;
    private final Clock clock;
    private final long acceptUntilMillis;
    private final ToDoubleFunction<Work> price;
    private final Budget budget;
    private final Function<String, SqlQuery> parser;
    private final Function<SqlQuery, EvalContext> evaluation;
    private double charge;
    private boolean outOfBudget;

    /** Whether the partition can still pay {@code ru} for this request. */
    @FunctionalInterface
    public interface Budget {
        boolean affords(double ru);
    }

    /**
     * @param evaluation the evaluation context of a query inside the script (with the container's functions)
     */
    public ScriptExecution(ContainerInfo c, PartitionTxn txn, Clock clock, java.time.Duration acceptWindow,
            ToDoubleFunction<Work> price, Budget budget, Function<String, SqlQuery> parser,
            Function<SqlQuery, EvalContext> evaluation) {
        this.c = c;
        this.txn = txn;
        this.clock = clock;
        this.acceptUntilMillis = clock.millis() + acceptWindow.toMillis();
        this.price = price;
        this.budget = budget;
        this.parser = parser;
        this.evaluation = evaluation;
    }

    /** What the operations cost so far. */
    public double charge() {
        return charge;
    }

    /** Whether the work outgrew the partition's budget (then nothing may be applied). */
    public boolean outOfBudget() {
        return outOfBudget;
    }

    /** Adds work done for the request outside the script (the write a trigger wraps). */
    public void add(Work work) {
        charge += price.applyAsDouble(work);
        outOfBudget |= !budget.affords(charge);
    }

    @Override
    public String call(String op, String link, String document, String options) {
        if (outOfBudget || clock.millis() >= acceptUntilMillis) {
            return NOT_ACCEPTED;
        }
        try {
            JsonNode opts = options == null ? Json.object() : Json.parse(options, "options");
            return switch (op) {
                case "create" -> written(txn.create(withId(document(document), opts)));
                case "upsert" -> written(txn.upsert(withId(document(document), opts), conditions(opts)));
                case "replace" -> written(txn.replace(documentId(link), document(document), conditions(opts)));
                case "delete" -> deleted(txn.delete(documentId(link), conditions(opts)));
                case "read" -> written(txn.read(documentId(link), conditions(opts)));
                case "query" -> query(link, document, opts);
                default -> throw ServiceException.badRequest("Unknown collection operation " + op + ".");
            };
        } catch (ServiceException e) {
            ObjectNode error = Json.object();
            error.put("accepted", true);
            error.putObject("error").put("number", e.status()).put("message", e.getMessage());
            return error.toString();
        }
    }

    private String written(ItemResult r) {
        add(r.work());
        StringBuilder out = new StringBuilder("{\"accepted\":true,\"options\":{\"etag\":")
                .append(Json.NODES.textNode(r.etag() == null ? "" : r.etag())).append('}');
        if (r.item() != null) {
            out.append(",\"resource\":").append(r.item().jsonString());
        }
        return out.append('}').toString();
    }

    private String deleted(ItemResult r) {
        add(r.work());
        return "{\"accepted\":true,\"options\":{}}";
    }

    /** A page of a query (or of all documents when {@code queryJson} is null) over the partition as staged. */
    private String query(String link, String queryJson, JsonNode opts) {
        checkCollection(link);
        String text = "SELECT * FROM root";
        Map<String, JsonNode> params = new HashMap<>();
        if (queryJson != null) {
            JsonNode q = Json.parse(queryJson, "query");
            text = q.path("query").asText(null);
            if (text == null) {
                throw ServiceException.badRequest("The query must be SQL text or {query, parameters}.");
            }
            for (JsonNode p : q.path("parameters")) {
                params.put(p.path("name").asText(), p.get("value"));
            }
        }
        SqlQuery query = parser.apply(text);
        List<StoredItem> stored = txn.items();
        List<JsonNode> docs = new ArrayList<>(stored.size());
        long bytes = 0;
        for (StoredItem item : stored) {
            docs.add(Json.parse(item.json(), "stored item"));
            bytes += item.jsonLength();
        }
        List<JsonNode> rows = query.execute(docs, params, evaluation.apply(query));
        int from = continuation(opts.path("continuation").asText(null), rows.size());
        int pageSize = opts.path("pageSize").asInt(DEFAULT_PAGE_SIZE);
        int to = pageSize <= 0 ? rows.size() : (int) Math.min(rows.size(), (long) from + pageSize);
        StringBuilder out = new StringBuilder("{\"accepted\":true,\"resource\":[");
        long returned = 0;
        for (int i = from; i < to; i++) {
            String row = rows.get(i).toString();
            returned += row.length();
            out.append(i == from ? "" : ",").append(row);
        }
        out.append("],\"options\":{");
        if (to < rows.size()) {
            out.append("\"continuation\":\"").append(to).append('"');
        }
        add(Work.scan(Work.Operation.QUERY, 0, stored.size(), bytes, to - from, returned));
        return out.append("}}").toString();
    }

    private static int continuation(String token, int size) {
        if (token == null || token.isEmpty()) {
            return 0;
        }
        try {
            int from = Integer.parseInt(token);
            if (from >= 0 && from <= size) {
                return from;
            }
        } catch (NumberFormatException e) {
            // falls through to the 400
        }
        throw ServiceException.badRequest("The continuation is not one this query handed out.");
    }

    private static ObjectNode document(String json) {
        if (json == null) {
            throw ServiceException.badRequest("The operation needs a document.");
        }
        return Json.parseObject(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), "document");
    }

    /** The server-side API gives a new document a GUID id unless asked not to. */
    private static ObjectNode withId(ObjectNode doc, JsonNode opts) {
        if (!doc.has("id") && !opts.path("disableAutomaticIdGeneration").asBoolean(false)) {
            doc.put("id", UUID.randomUUID().toString());
        }
        return doc;
    }

    /** {@code etag} (If-Match) or {@code accessCondition: {type: IfMatch|IfNoneMatch, condition}}. */
    private static Conditions conditions(JsonNode opts) {
        JsonNode ac = opts.path("accessCondition");
        if (ac.isObject() && ac.path("condition").isTextual()) {
            String condition = ac.path("condition").asText();
            return "IfNoneMatch".equalsIgnoreCase(ac.path("type").asText()) ? new Conditions(null, condition)
                    : new Conditions(condition, null);
        }
        return opts.path("etag").isTextual() ? new Conditions(opts.path("etag").asText(), null) : Conditions.NONE;
    }

    /** The id of the document a link names: {@code dbs/{db}/colls/{c}/docs/{id}}, or its rid-based self link. */
    private String documentId(String link) {
        String[] s = segments(link);
        if (s.length != 6 || !s[4].equals("docs")) {
            throw ServiceException.badRequest("The link '" + link + "' does not name a document.");
        }
        checkCollection(s);
        if (!s[3].equals(c.rid())) {
            return java.net.URLDecoder.decode(s[5], java.nio.charset.StandardCharsets.UTF_8);
        }
        for (StoredItem item : txn.items()) {
            JsonNode rid = Json.parse(item.json(), "stored item").get("_rid");
            if (rid != null && rid.asText().equals(s[5])) {
                return Json.parse(item.json(), "stored item").path("id").asText();
            }
        }
        throw ServiceException.itemNotFound();
    }

    private void checkCollection(String link) {
        checkCollection(segments(link));
    }

    /** A script reaches only the container it runs in, by name or by rid. */
    private void checkCollection(String[] s) {
        boolean byName = s.length >= 4 && s[1].equals(c.databaseId()) && s[3].equals(c.id());
        boolean byRid = s.length >= 4 && s[1].equals(c.databaseRid()) && s[3].equals(c.rid());
        if (!(s.length >= 4 && s[0].equals("dbs") && s[2].equals("colls") && (byName || byRid))) {
            throw ServiceException.badRequest("A script can only reach the container it runs in; the link names"
                    + " another resource.");
        }
    }

    private static String[] segments(String link) {
        String l = link == null ? "" : link.trim();
        while (l.startsWith("/")) {
            l = l.substring(1);
        }
        while (l.endsWith("/")) {
            l = l.substring(0, l.length() - 1);
        }
        return l.split("/");
    }
}
