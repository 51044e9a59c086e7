package dev.partita.core.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.index.IndexState;
import dev.partita.core.index.ContainerSearch;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.request.ApiVersion;
import dev.partita.core.partition.PartitionMap;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The account's databases and containers: validated, given their {@code _rid}s, persisted as metadata records and
 * kept in memory for lookups by name and by rid. Mutations are serialized; lookups are lock-free.
 */
public final class Catalog {
    private static final String COUNTERS = "counters";
    private static final String DB = "db/";
    private static final String COLL = "coll/";

    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Map<String, DatabaseInfo> databases = new ConcurrentHashMap<>();
    private final Map<String, ContainerInfo> containers = new ConcurrentHashMap<>();
    private final Map<String, DatabaseInfo> databasesByRid = new ConcurrentHashMap<>();
    private final Map<String, ContainerInfo> containersByRid = new ConcurrentHashMap<>();
    private final Map<Integer, ContainerInfo> containersById = new ConcurrentHashMap<>();
    private int nextDatabase = 1;
    private int nextContainer = 1;
    private long nextEtag = 1;

    public Catalog(Store store, Clock clock, Limits limits) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
        load();
    }

    // ---- databases

    public synchronized DatabaseInfo createDatabase(ObjectNode body, Throughput throughput) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The database body must have a string 'id'.");
        }
        String name = id.asText();
        ResourceNames.validateResourceId(name, "database", limits.maxResourceIdChars());
        if (databases.containsKey(name)) {
            throw ServiceException.conflict("A database with this id already exists.");
        }
        int dbId = nextDatabase++;
        DatabaseInfo db = new DatabaseInfo(name, dbId, ResourceIds.encode(ResourceIds.database(dbId)), nowSeconds(),
                newEtag(), throughput);
        WriteBatch batch = new WriteBatch();
        batch.put(StoreKeys.meta(DB + name), Json.bytes(databaseRecord(db)));
        putCounters(batch);
        store.apply(batch);
        databases.put(name, db);
        databasesByRid.put(db.rid(), db);
        return db;
    }

    public DatabaseInfo database(String id) {
        DatabaseInfo db = databases.get(id);
        if (db == null) {
            throw ServiceException.notFound("The database does not exist.");
        }
        return db;
    }

    public DatabaseInfo databaseByRid(String rid) {
        DatabaseInfo db = databasesByRid.get(rid);
        if (db == null) {
            throw ServiceException.notFound("The database does not exist.");
        }
        return db;
    }

    public List<DatabaseInfo> databases() {
        return databases.values().stream().sorted(Comparator.comparingInt(DatabaseInfo::databaseId)).toList();
    }

    /** Sets a database's shared throughput (its offer replace). Additive: used by {@link Offers}. */
    public synchronized DatabaseInfo setDatabaseThroughput(String id, Throughput throughput) {
        DatabaseInfo now = database(id);
        DatabaseInfo updated = new DatabaseInfo(now.id(), now.databaseId(), now.rid(), now.ts(), now.etag(), throughput);
        store.apply(new WriteBatch().put(StoreKeys.meta(DB + id), Json.bytes(databaseRecord(updated))));
        databases.put(id, updated);
        databasesByRid.put(updated.rid(), updated);
        return updated;
    }

    /** Removes the database and returns the containers whose data the caller must now delete. */
    public synchronized List<ContainerInfo> deleteDatabase(String id) {
        DatabaseInfo db = database(id);
        List<ContainerInfo> owned = containers(id);
        WriteBatch batch = new WriteBatch();
        batch.delete(StoreKeys.meta(DB + id));
        owned.forEach(c -> batch.delete(StoreKeys.meta(COLL + id + "/" + c.id())));
        store.apply(batch);
        owned.forEach(this::forget);
        databases.remove(id);
        databasesByRid.remove(db.rid());
        return owned;
    }

    // ---- containers

    /**
     * Creates a container; a body without a partition key under an API version before 2018-12-31 makes a
     * non-partitioned container ({@link NonPartitionedContainers}), with one physical partition.
     */
    public synchronized ContainerInfo createContainer(String databaseId, ObjectNode body, Throughput throughput,
            int explicitPartitions, ApiVersion version) {
        DatabaseInfo db = database(databaseId);
        boolean nonPartitioned = NonPartitionedContainers.isRequested(body, version);
        if (nonPartitioned) {
            NonPartitionedContainers.checkThroughput(throughput, db.throughput(), limits);
        }
        ContainerProperties props = ContainerProperties.parse(
                nonPartitioned ? NonPartitionedContainers.withSystemKey(body) : body, limits);
        // a 400 before anything is created
        IndexingPolicy policy = IndexingPolicy.parse(props.body().get("indexingPolicy")).withComputed(props.computed());
        String id = props.body().get("id").asText();
        if (containers.containsKey(key(databaseId, id))) {
            throw ServiceException.conflict("A container with this id already exists in the database.");
        }
        if (!throughput.isProvisioned() && db.throughput().isProvisioned()) {
            long sharing = containers.values().stream()
                    .filter(x -> x.databaseId().equals(databaseId) && !x.throughput().isProvisioned()).count();
            if (sharing >= limits.maxSharedThroughputContainers()) {
                throw ServiceException.badRequest("A shared-throughput database can hold at most "
                        + limits.maxSharedThroughputContainers() + " containers that share its throughput; give the"
                        + " new container its own throughput.");
            }
        }
        int n = nonPartitioned ? 1
                : explicitPartitions > 0 ? explicitPartitions : initialPartitions(throughput, db.throughput());
        int containerId = nextContainer++;
        String rid = ResourceIds.encode(ResourceIds.container(ResourceIds.database(db.databaseId()), containerId));
        ContainerInfo c = new ContainerInfo(databaseId, id, containerId | 0x80000000, db.rid(), rid, props.body(),
                props.partitionKey(), props.defaultTtl(), props.uniqueKeys(),
                PartitionMap.initial(props.partitionKey(), n), n, nowSeconds(), newEtag(), throughput, policy);
        WriteBatch batch = new WriteBatch();
        batch.put(StoreKeys.meta(COLL + databaseId + "/" + id), Json.bytes(containerRecord(c)));
        // an empty container's index is complete for its policy
        batch.put(IndexState.key(c.containerId()), IndexState.value(policy));
        putCounters(batch);
        store.apply(batch);
        remember(c);
        return c;
    }

    private int initialPartitions(Throughput own, Throughput shared) {
        Throughput t = own.isProvisioned() ? own : shared;
        return limits.initialPartitions(t.manualRus(), t.autoscaleMaxRus());
    }

    public ContainerInfo container(String databaseId, String id) {
        ContainerInfo c = containers.get(key(databaseId, id));
        if (c == null) {
            database(databaseId);
            throw ServiceException.notFound("The container does not exist.");
        }
        return c;
    }

    public ContainerInfo containerByRid(String rid) {
        ContainerInfo c = containersByRid.get(rid);
        if (c == null) {
            throw ServiceException.notFound("The container does not exist.");
        }
        return c;
    }

    /** The container with this internal id, or null if there is none. */
    public ContainerInfo containerById(int containerId) {
        return containersById.get(containerId);
    }

    /** The current state of a container, or null if it was deleted. */
    public ContainerInfo current(ContainerInfo c) {
        return containersById.get(c.containerId());
    }

    public List<ContainerInfo> containers(String databaseId) {
        database(databaseId);
        return containers.values().stream().filter(c -> c.databaseId().equals(databaseId))
                .sorted(Comparator.comparingInt(c -> c.containerId() & 0x7FFFFFFF)).toList();
    }

    /** Replaces the user-settable properties. The partition key cannot change. */
    public synchronized ContainerInfo replaceContainer(String databaseId, String id, ObjectNode body) {
        ContainerInfo old = container(databaseId, id);
        ContainerSearch.checkVectorIndexesKept(old.properties(), body);
        ContainerProperties props = ContainerProperties.parse(body, limits);
        IndexingPolicy policy = IndexingPolicy.parse(props.body().get("indexingPolicy")).withComputed(props.computed());
        if (!props.body().get("id").asText().equals(id)) {
            throw ServiceException.badRequest("The container id in the body does not match the id in the path.");
        }
        if (!props.partitionKey().equals(old.partitionKey())) {
            throw ServiceException.badRequest("The partition key of a container cannot be changed.");
        }
        ContainerSearch.checkReplace(old.properties(), props.body());
        ContainerInfo c = new ContainerInfo(databaseId, id, old.containerId(), old.databaseRid(), old.rid(),
                props.body(), props.partitionKey(), props.defaultTtl(), props.uniqueKeys(), old.partitions(),
                old.nextRangeId(), nowSeconds(), newEtag(), old.throughput(), policy);
        persist(c);
        return c;
    }

    public synchronized ContainerInfo setThroughput(ContainerInfo c, Throughput throughput) {
        ContainerInfo now = container(c.databaseId(), c.id());
        ContainerInfo updated = new ContainerInfo(now.databaseId(), now.id(), now.containerId(), now.databaseRid(),
                now.rid(), now.properties(), now.partitionKey(), now.defaultTtl(), now.uniqueKeys(), now.partitions(),
                now.nextRangeId(), now.ts(), now.etag(), throughput, now.indexingPolicy());
        persist(updated);
        return updated;
    }

    /** Replaces one physical partition by two children split at {@code splitPoint}. */
    public synchronized ContainerInfo split(ContainerInfo c, String rangeId, String splitPoint) {
        ContainerInfo now = container(c.databaseId(), c.id());
        int left = now.nextRangeId();
        PartitionMap map = now.partitions().split(rangeId, splitPoint, Integer.toString(left),
                Integer.toString(left + 1));
        ContainerInfo updated = now.withPartitions(map, left + 2);
        persist(updated);
        return updated;
    }

    /** Removes the container from the catalog; the caller deletes its data. */
    public synchronized ContainerInfo deleteContainer(String databaseId, String id) {
        ContainerInfo c = container(databaseId, id);
        WriteBatch batch = new WriteBatch();
        batch.delete(StoreKeys.meta(COLL + databaseId + "/" + id));
        store.apply(batch);
        forget(c);
        return c;
    }

    // ---- persistence

    private void persist(ContainerInfo c) {
        store.apply(new WriteBatch().put(StoreKeys.meta(COLL + c.databaseId() + "/" + c.id()),
                Json.bytes(containerRecord(c))));
        remember(c);
    }

    private void remember(ContainerInfo c) {
        containers.put(key(c.databaseId(), c.id()), c);
        containersByRid.put(c.rid(), c);
        containersById.put(c.containerId(), c);
    }

    private void forget(ContainerInfo c) {
        containers.remove(key(c.databaseId(), c.id()));
        containersByRid.remove(c.rid());
        containersById.remove(c.containerId());
    }

    private void putCounters(WriteBatch batch) {
        ObjectNode o = Json.object();
        o.put("nextDatabase", nextDatabase);
        o.put("nextContainer", nextContainer);
        o.put("nextEtag", nextEtag);
        batch.put(StoreKeys.meta(COUNTERS), Json.bytes(o));
    }

    private void load() {
        byte[] counters = store.get(StoreKeys.meta(COUNTERS));
        if (counters != null) {
            JsonNode o = Json.parse(counters, "catalog counters");
            nextDatabase = o.path("nextDatabase").asInt(1);
            nextContainer = o.path("nextContainer").asInt(1);
            nextEtag = o.path("nextEtag").asLong(1);
        } else {
            // a new account's rids differ from every earlier one's, as the service's do: a client that outlives an
            // in-memory server must not take the new server's containers for the old ones (its session tokens for
            // them would be ahead of the new containers, and every session read a 404/1002)
            nextDatabase = ThreadLocalRandom.current().nextInt(1, 1 << 24);
        }
        byte[] from = StoreKeys.meta(DB);
        try (Cursor cur = store.scan(from, StoreKeys.prefixEnd(from))) {
            while (cur.next()) {
                DatabaseInfo db = readDatabaseRecord(Json.parse(cur.value(), "database record"));
                databases.put(db.id(), db);
                databasesByRid.put(db.rid(), db);
            }
        }
        from = StoreKeys.meta(COLL);
        try (Cursor cur = store.scan(from, StoreKeys.prefixEnd(from))) {
            while (cur.next()) {
                remember(readContainerRecord(Json.parse(cur.value(), "container record")));
            }
        }
        // etags must stay unique across restarts even for resources changed after the last counter write
        nextEtag += 1_000_000;
    }

    private static ObjectNode databaseRecord(DatabaseInfo db) {
        ObjectNode o = Json.object();
        o.put("id", db.id());
        o.put("databaseId", db.databaseId());
        o.put("rid", db.rid());
        o.put("ts", db.ts());
        o.put("etag", db.etag());
        o.put("manualRus", db.throughput().manualRus());
        o.put("autoscaleMaxRus", db.throughput().autoscaleMaxRus());
        return o;
    }

    private static DatabaseInfo readDatabaseRecord(JsonNode o) {
        return new DatabaseInfo(o.get("id").asText(), o.get("databaseId").asInt(), o.get("rid").asText(),
                o.get("ts").asLong(), o.get("etag").asText(),
                new Throughput(o.path("manualRus").asInt(), o.path("autoscaleMaxRus").asInt()));
    }

    private static ObjectNode containerRecord(ContainerInfo c) {
        ObjectNode o = Json.object();
        o.put("databaseId", c.databaseId());
        o.put("containerId", c.containerId());
        o.put("databaseRid", c.databaseRid());
        o.put("rid", c.rid());
        o.set("properties", c.properties());
        o.put("nextRangeId", c.nextRangeId());
        o.put("ts", c.ts());
        o.put("etag", c.etag());
        o.put("manualRus", c.throughput().manualRus());
        o.put("autoscaleMaxRus", c.throughput().autoscaleMaxRus());
        ArrayNode parts = o.putArray("partitions");
        for (PhysicalPartition p : c.partitions().partitions()) {
            ObjectNode po = parts.addObject();
            po.put("id", p.id());
            po.put("min", p.minInclusive());
            po.put("max", p.maxExclusive());
            ArrayNode parents = po.putArray("parents");
            p.parents().forEach(parents::add);
        }
        return o;
    }

    private ContainerInfo readContainerRecord(JsonNode o) {
        ContainerProperties props = ContainerProperties.parse((ObjectNode) o.get("properties"), limits);
        List<PhysicalPartition> parts = new ArrayList<>();
        for (JsonNode p : o.get("partitions")) {
            List<String> parents = new ArrayList<>();
            p.get("parents").forEach(x -> parents.add(x.asText()));
            parts.add(new PhysicalPartition(p.get("id").asText(), p.get("min").asText(), p.get("max").asText(),
                    parents));
        }
        return new ContainerInfo(o.get("databaseId").asText(), props.body().get("id").asText(),
                o.get("containerId").asInt(), o.get("databaseRid").asText(), o.get("rid").asText(), props.body(),
                props.partitionKey(), props.defaultTtl(), props.uniqueKeys(), new PartitionMap(parts),
                o.get("nextRangeId").asInt(), o.get("ts").asLong(), o.get("etag").asText(),
                new Throughput(o.path("manualRus").asInt(), o.path("autoscaleMaxRus").asInt()),
                IndexingPolicy.ofStored(props.body().get("indexingPolicy")).withComputed(props.computed()));
    }

    private long nowSeconds() {
        return clock.millis() / 1000;
    }

    private String newEtag() {
        return Etags.of(0, nextEtag++);
    }

    private static String key(String databaseId, String id) {
        return databaseId + "/" + id;
    }
}
