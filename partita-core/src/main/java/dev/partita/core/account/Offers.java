package dev.partita.core.account;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The account's offers (protocol.md §9): one per database or container with provisioned throughput. An offer is a
 * view of the resource's {@link Throughput}; what this registry adds is the offer's own identity — a 3-byte
 * {@code _rid}, an etag and a timestamp that change on every replace — persisted as small metadata records:
 *
 * <pre>
 * meta "offer/next"            next offer number
 * meta "offer/res/&lt;resRid&gt;"   {"offer":n,"version":v,"ts":s} for the database or container with that rid
 * meta "offer/id/&lt;offerRid&gt;"  the resource rid the offer belongs to
 * </pre>
 *
 * An offer number is given the first time a resource's offer is looked at, so the catalog needs no hook. Records of
 * deleted resources are left behind and never shown (a re-created resource has a new rid). Stateless: every call
 * reads the store; mutations take the engine's metadata lock.
 */
public final class Offers {
    private static final String NEXT = "offer/next";
    private static final String BY_RESOURCE = "offer/res/";
    private static final String BY_ID = "offer/id/";

    private final Store store;
    private final Catalog catalog;
    private final Clock clock;
    private final Limits limits;
    private final Object lock;
    private final ThroughputChanges changes;

    /** What applying an offer's throughput does to its resource: the engine's, since it may split partitions. */
    public interface ThroughputChanges {
        void setDatabaseThroughput(DatabaseInfo db, Throughput t);

        void setContainerThroughput(ContainerInfo c, Throughput t);

        /** Whether a throughput increase on the container still owes its partition splits. */
        boolean splitPending(ContainerInfo c);
    }

    /**
     * One offer as the service shows it.
     *
     * @param resourceSelf the rid-based link of the database or container, e.g. {@code dbs/AbCd==/colls/AbCdEf0=/}
     */
    public record Offer(String rid, String resourceRid, String resourceSelf, Throughput throughput, String etag,
            long ts, int minThroughput) {

        /**
         * The offer resource (offer version V2). {@code content.offerThroughput} is always present.
         *
         * @param minManual the account's smallest manual throughput (autoscale shows its floor, at least this)
         */
        public ObjectNode toJson(int minManual) {
            ObjectNode o = Json.object();
            o.put("id", rid);
            o.put("_rid", rid);
            o.put("_self", "offers/" + rid + "/");
            o.put("_etag", etag);
            o.put("_ts", ts);
            o.put("offerVersion", "V2");
            o.put("offerType", "Invalid");
            o.put("resource", resourceSelf);
            o.put("offerResourceId", resourceRid);
            ObjectNode content = o.putObject("content");
            if (throughput.isAutoscale()) {
                // the service reports the current scale floor (10% of the maximum) as the manual figure
                content.put("offerThroughput", Math.max(throughput.autoscaleMaxRus() / 10, minManual));
                ObjectNode auto = content.putObject("offerAutopilotSettings");
                auto.put("maxThroughput", throughput.autoscaleMaxRus());
                auto.putObject("autoUpgradePolicy").putObject("throughputPolicy").put("incrementPercent", 0);
            } else {
                content.put("offerThroughput", throughput.manualRus());
            }
            content.put("offerIsRUPerMinuteThroughputEnabled", false);
            return o;
        }
    }

    /** @param lock the engine's lock for metadata records (shared with {@link Users}) */
    public Offers(Store store, Catalog catalog, Clock clock, Limits limits, Object lock, ThroughputChanges changes) {
        this.store = store;
        this.catalog = catalog;
        this.clock = clock;
        this.limits = limits;
        this.lock = lock;
        this.changes = changes;
    }

    /** The offer resource as the service shows it, with this account's limits. */
    public ObjectNode toJson(Offer offer) {
        return offer.toJson(limits.minManualRus());
    }

    /**
     * Checks a requested throughput: manual at least 400 RU/s in steps of 100; autoscale maximum at least 1,000 RU/s
     * in steps of 1,000; at most 1,000,000 either way; never both (the values come from {@code limits}).
     */
    public static Throughput validate(Throughput t, Limits limits) {
        if (t.manualRus() > 0 && t.autoscaleMaxRus() > 0) {
            throw ServiceException.badRequest("Set either manual throughput or autoscale settings, not both.");
        }
        if (t.manualRus() < 0 || t.autoscaleMaxRus() < 0) {
            throw ServiceException.badRequest("Throughput must be a positive number of RU/s.");
        }
        int max = limits.maxRusPerResource();
        if (t.manualRus() > 0 && (t.manualRus() < limits.minManualRus()
                || t.manualRus() % limits.manualStepRus() != 0 || t.manualRus() > max)) {
            throw ServiceException.badRequest("Manual throughput must be between " + limits.minManualRus() + " and "
                    + max + " RU/s in steps of " + limits.manualStepRus() + "; got " + t.manualRus() + ".");
        }
        if (t.autoscaleMaxRus() > 0 && (t.autoscaleMaxRus() < limits.minAutoscaleMaxRus()
                || t.autoscaleMaxRus() % limits.autoscaleStepRus() != 0 || t.autoscaleMaxRus() > max)) {
            throw ServiceException.badRequest("The autoscale maximum throughput must be between "
                    + limits.minAutoscaleMaxRus() + " and " + max + " RU/s in steps of " + limits.autoscaleStepRus()
                    + "; got " + t.autoscaleMaxRus() + ".");
        }
        return t;
    }

    /** Every offer of the account: databases with shared throughput, then containers with their own. */
    public List<Offer> list() {
        List<Offer> out = new ArrayList<>();
        for (DatabaseInfo db : catalog.databases()) {
            if (db.throughput().isProvisioned()) {
                out.add(offerOf(db.rid(), db.selfLink(), db.throughput(), db.ts()));
            }
            for (ContainerInfo c : catalog.containers(db.id())) {
                if (c.throughput().isProvisioned()) {
                    out.add(offerOf(c.rid(), c.selfLink(), c.throughput(), c.ts()));
                }
            }
        }
        return out;
    }

    /**
     * Whether the offer's resource still owes the partition splits of a throughput increase (header
     * {@code x-ms-offer-replace-pending}); only with a {@link Limits#throughputSplitDelay()}.
     */
    public boolean replacePending(Offer offer) {
        if (ResourceIds.isDatabaseRid(offer.resourceRid())) {
            return false;
        }
        ContainerInfo c = findContainer(offer.resourceRid());
        return c != null && changes.splitPending(c);
    }

    /** The offer with this rid; 404 if there is none (or its resource is gone or no longer provisioned). */
    public Offer read(String offerRid) {
        byte[] resource = store.get(StoreKeys.meta(BY_ID + offerRid));
        if (resource == null) {
            throw ServiceException.notFound("The offer does not exist.");
        }
        Offer offer = forResource(new String(resource, UTF_8));
        if (offer == null || !offer.rid().equals(offerRid)) {
            throw ServiceException.notFound("The offer does not exist.");
        }
        return offer;
    }

    /** The offer of the database or container with this rid, or null when it has no provisioned throughput. */
    public Offer forResource(String resourceRid) {
        if (ResourceIds.isDatabaseRid(resourceRid)) {
            DatabaseInfo db = findDatabase(resourceRid);
            return db == null || !db.throughput().isProvisioned() ? null
                    : offerOf(db.rid(), db.selfLink(), db.throughput(), db.ts());
        }
        ContainerInfo c = findContainer(resourceRid);
        return c == null || !c.throughput().isProvisioned() ? null
                : offerOf(c.rid(), c.selfLink(), c.throughput(), c.ts());
    }

    /**
     * Replaces an offer from its JSON ({@code content.offerThroughput} for manual,
     * {@code content.offerAutopilotSettings.maxThroughput} for autoscale) and applies the throughput to its resource.
     */
    public Offer replace(String offerRid, ObjectNode body) {
        Offer current = read(offerRid);
        JsonNode content = body.get("content");
        if (content == null || !content.isObject()) {
            throw ServiceException.badRequest("The offer body needs a 'content' object with 'offerThroughput' or"
                    + " 'offerAutopilotSettings'.");
        }
        JsonNode auto = content.get("offerAutopilotSettings");
        Throughput wanted;
        if (auto != null && auto.isObject()) {
            JsonNode max = auto.get("maxThroughput");
            if (max == null || !max.canConvertToInt()) {
                throw ServiceException.badRequest("'offerAutopilotSettings.maxThroughput' must be a number of RU/s.");
            }
            wanted = Throughput.autoscale(max.intValue());
        } else {
            JsonNode manual = content.get("offerThroughput");
            if (manual == null || !manual.canConvertToInt()) {
                throw ServiceException.badRequest("'content.offerThroughput' must be a number of RU/s.");
            }
            wanted = Throughput.manual(manual.intValue());
        }
        validate(wanted, limits);
        if (body.has("offerResourceId") && !current.resourceRid().equals(body.get("offerResourceId").asText())) {
            throw ServiceException.badRequest("The offer's 'offerResourceId' cannot be changed.");
        }
        synchronized (lock) {
            if (ResourceIds.isDatabaseRid(current.resourceRid())) {
                changes.setDatabaseThroughput(catalog.databaseByRid(current.resourceRid()), wanted);
            } else {
                changes.setContainerThroughput(catalog.containerByRid(current.resourceRid()), wanted);
            }
            ObjectNode rec = record(current.resourceRid());
            rec.put("version", rec.path("version").asLong(0) + 1);
            rec.put("ts", clock.millis() / 1000);
            store.apply(new WriteBatch().put(StoreKeys.meta(BY_RESOURCE + current.resourceRid()), Json.bytes(rec)));
        }
        return read(offerRid);
    }

    private Offer offerOf(String resourceRid, String self, Throughput t, long resourceTs) {
        ObjectNode rec = record(resourceRid);
        int number = rec.get("offer").asInt();
        long version = rec.path("version").asLong(0);
        long ts = rec.path("ts").asLong(resourceTs);
        String rid = ResourceIds.encode(ResourceIds.offer(number));
        // scope: the offer number with bit 30 set, apart from items (bit 31) and catalog resources (0)
        return new Offer(rid, resourceRid, self, t, Etags.of(0x40000000 | number, version + 1),
                ts == 0 ? resourceTs : ts, t.isAutoscale() ? limits.minAutoscaleMaxRus() : limits.minManualRus());
    }

    /** The resource's offer record, created (with a new offer number) on first use. */
    private ObjectNode record(String resourceRid) {
        byte[] key = StoreKeys.meta(BY_RESOURCE + resourceRid);
        byte[] raw = store.get(key);
        if (raw != null) {
            return (ObjectNode) Json.parse(raw, "offer record");
        }
        synchronized (lock) {
            raw = store.get(key);
            if (raw != null) {
                return (ObjectNode) Json.parse(raw, "offer record");
            }
            byte[] next = store.get(StoreKeys.meta(NEXT));
            int number = next == null ? 1 : Integer.parseInt(new String(next, UTF_8));
            if (number >= 1 << 24) {
                throw new ServiceException(503, 0, "The account has run out of offer ids.");
            }
            ObjectNode rec = Json.object();
            rec.put("offer", number);
            rec.put("version", 0);
            rec.put("ts", 0);
            String rid = ResourceIds.encode(ResourceIds.offer(number));
            store.apply(new WriteBatch()
                    .put(StoreKeys.meta(NEXT), Integer.toString(number + 1).getBytes(UTF_8))
                    .put(key, Json.bytes(rec))
                    .put(StoreKeys.meta(BY_ID + rid), resourceRid.getBytes(UTF_8)));
            return rec;
        }
    }

    private DatabaseInfo findDatabase(String rid) {
        try {
            return catalog.databaseByRid(rid);
        } catch (ServiceException e) {
            return null;
        }
    }

    private ContainerInfo findContainer(String rid) {
        try {
            return catalog.containerByRid(rid);
        } catch (ServiceException e) {
            return null;
        }
    }
}
