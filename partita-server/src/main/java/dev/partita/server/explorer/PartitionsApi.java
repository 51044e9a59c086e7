package dev.partita.server.explorer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.stats.ContainerStatistics;
import dev.partita.core.stats.LogicalPartitionUsage;
import dev.partita.core.stats.PartitionStatistics;
import dev.partita.core.stats.SplitRecord;
import dev.partita.server.auth.Authenticator;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import java.util.List;

/**
 * {@code GET /_explorer/api/dbs/{db}/colls/{c}/partitions}: the heat map's numbers for one container — per physical
 * partition the RU charged, the RU/s budget they were charged against and the 429s of each of the last {@link #SECONDS} seconds, its RU/s budget, totals,
 * storage, items and logical partitions; the splits; the busiest and the largest logical partitions. Signed like a
 * read of the container (verb GET, resource type {@code colls}, link {@code dbs/{db}/colls/{c}}) with an account key
 * (read-only keys too): the answer names partition key values, so a resource token or no signature gets nothing.
 */
final class PartitionsApi {
    static final int SECONDS = 120;
    static final int TOP = 10;
    private final Engine engine;
    private final Authenticator authenticator;

    PartitionsApi(Engine engine, Authenticator authenticator) {
        this.engine = engine;
        this.authenticator = authenticator;
    }

    /** @param s the path after {@code /_explorer/api} */
    Reply handle(Exchange ex, List<String> s) {
        if (s.size() != 5 || !s.get(0).equals("dbs") || !s.get(2).equals("colls") || !s.get(4).equals("partitions")) {
            throw ServiceException.notFound("The explorer's API has /_explorer/api/dbs/{db}/colls/{c}/partitions.");
        }
        String link = "dbs/" + s.get(1) + "/colls/" + s.get(3);
        Principal who = authenticator.authenticate(ex.method().name(), ex.header(Hdr.AUTHORIZATION),
                ex.header(Hdr.X_DATE), ex.header(Hdr.HTTP_DATE), "colls", link);
        if (who instanceof Principal.ResourceToken) {
            throw ServiceException.forbidden(0, "The partition statistics name partition key values: sign the request"
                    + " with an account key.");
        }
        ContainerStatistics stats = engine.statistics(engine.readContainer(s.get(1), s.get(3)), SECONDS, TOP);
        return Reply.json(200, json(stats)).header("cache-control", "no-store");
    }

    static ObjectNode json(ContainerStatistics s) {
        ObjectNode o = Json.object();
        o.put("database", s.databaseId());
        o.put("container", s.containerId());
        o.put("now", s.nowMillis());
        o.put("seconds", s.seconds());
        ArrayNode parts = o.putArray("partitions");
        for (PartitionStatistics p : s.partitions()) {
            ObjectNode j = parts.addObject();
            j.put("id", p.id());
            j.put("minInclusive", p.minInclusive());
            j.put("maxExclusive", p.maxExclusive());
            ArrayNode parents = j.putArray("parents");
            p.parents().forEach(parents::add);
            j.put("live", p.live());
            j.put("budget", p.budgetRusPerSecond());
            ArrayNode ru = j.putArray("ru");
            for (double v : p.ruPerSecond()) {
                ru.add(v);
            }
            ArrayNode budgets = j.putArray("budgets");
            for (double v : p.budgetPerSecond()) {
                budgets.add(v);
            }
            ArrayNode throttled = j.putArray("throttled");
            for (long v : p.throttledPerSecond()) {
                throttled.add(v);
            }
            j.put("totalRu", p.totalRu());
            j.put("totalThrottled", p.totalThrottled());
            j.put("storageBytes", p.storageBytes());
            j.put("items", p.itemCount());
            j.put("logicalPartitions", p.logicalPartitions());
        }
        ArrayNode splits = o.putArray("splits");
        for (SplitRecord r : s.splits()) {
            ObjectNode j = splits.addObject();
            j.put("parent", r.parent());
            j.put("minInclusive", r.minInclusive());
            j.put("maxExclusive", r.maxExclusive());
            ArrayNode children = j.putArray("children");
            r.children().forEach(children::add);
            j.put("at", r.atMillis());
        }
        keys(o.putArray("topByRu"), s.topByRu());
        keys(o.putArray("topBySize"), s.topBySize());
        return o;
    }

    private static void keys(ArrayNode out, List<LogicalPartitionUsage> list) {
        for (LogicalPartitionUsage u : list) {
            ObjectNode j = out.addObject();
            j.put("partition", u.rangeId());
            j.put("epk", u.epk());
            if (u.partitionKey() == null) {
                j.putNull("partitionKey");
            } else {
                j.set("partitionKey", Json.parse(u.partitionKey().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        "partition key"));
            }
            j.put("ru", u.ru());
            j.put("bytes", u.bytes());
        }
    }
}
