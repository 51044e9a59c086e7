package dev.partita.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.Catalog;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.capacity.Limits;
import dev.partita.core.changefeed.ChangeRecord;
import dev.partita.core.item.ContainerState;
import dev.partita.core.item.Items;
import dev.partita.core.item.PatchCondition;
import dev.partita.core.item.StoredItem;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.partition.RangeBoundaries;
import dev.partita.core.query.QueryExecutor;
import dev.partita.core.query.QueryPage;
import dev.partita.core.query.QueryScope;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine of one emulated account: databases, containers and their items over one {@link Store}. Thread-safe; the
 * gateway and the JUnit extension call it directly.
 */
public final class Engine implements AutoCloseable {
    private static final int DELETE_CHUNK = 1024;

    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Catalog catalog;
    private final PatchCondition patchCondition;
    private final QueryExecutor queries;
    private final Map<Integer, ContainerState> states = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService background;

    private Engine(Store store, Clock clock, Limits limits, PatchCondition patchCondition) {
        this.store = Objects.requireNonNull(store);
        this.clock = Objects.requireNonNull(clock);
        this.limits = Objects.requireNonNull(limits);
        this.patchCondition = Objects.requireNonNull(patchCondition);
        this.catalog = new Catalog(store, clock, limits);
        this.queries = new QueryExecutor(store, clock, limits);
        // indexes left incomplete (by a crash during a rebuild, or by an older version) are rebuilt before use
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo c : catalog.containers(db.id())) {
                items(c).reindexIfStale();
            }
        }
    }

    /** An engine over {@code store} that evaluates patch conditions with the query language; it owns the store. */
    public static Engine open(Store store, Clock clock, Limits limits) {
        return new Engine(store, clock, limits, new SqlPatchCondition(clock));
    }

    /** An engine with another patch-condition evaluator (tests); the engine owns the store and closes it. */
    public static Engine open(Store store, Clock clock, Limits limits, PatchCondition patchCondition) {
        return new Engine(store, clock, limits, patchCondition);
    }

    public Clock clock() {
        return clock;
    }

    public Limits limits() {
        return limits;
    }

    public Store store() {
        return store;
    }

    // ---- databases

    public DatabaseInfo createDatabase(ObjectNode body, Throughput throughput) {
        return catalog.createDatabase(body, throughput);
    }

    public DatabaseInfo readDatabase(String id) {
        return catalog.database(id);
    }

    public DatabaseInfo databaseByRid(String rid) {
        return catalog.databaseByRid(rid);
    }

    public List<DatabaseInfo> listDatabases() {
        return catalog.databases();
    }

    /** Sets a database's shared throughput (offer replace on a database). */
    public DatabaseInfo setDatabaseThroughput(String id, Throughput throughput) {
        return catalog.setDatabaseThroughput(id, throughput);
    }

    public void deleteDatabase(String id) {
        for (ContainerInfo c : catalog.deleteDatabase(id)) {
            deleteData(c);
        }
    }

    // ---- containers

    /**
     * Creates a container; its physical partition count follows the documented rule for its throughput unless
     * {@code explicitPartitions} is positive.
     */
    public ContainerInfo createContainer(String databaseId, ObjectNode body, Throughput throughput,
            int explicitPartitions) {
        return catalog.createContainer(databaseId, body, throughput, explicitPartitions);
    }

    public ContainerInfo readContainer(String databaseId, String id) {
        return catalog.container(databaseId, id);
    }

    public ContainerInfo containerByRid(String rid) {
        return catalog.containerByRid(rid);
    }

    public List<ContainerInfo> listContainers(String databaseId) {
        return catalog.containers(databaseId);
    }

    public ContainerInfo replaceContainer(String databaseId, String id, ObjectNode body) {
        ContainerInfo before = catalog.container(databaseId, id);
        ContainerState state = state(before);
        state.writeLock().lock();
        try {
            ContainerInfo after = catalog.replaceContainer(databaseId, id, body);
            if (!Objects.equals(before.defaultTtl(), after.defaultTtl())) {
                items(after).recomputeExpiry();
            }
            if (!Objects.equals(before.properties().get("indexingPolicy"), after.properties().get("indexingPolicy"))) {
                items(after).reindex();
            }
            return after;
        } finally {
            state.writeLock().unlock();
        }
    }

    public ContainerInfo setThroughput(ContainerInfo container, Throughput throughput) {
        return catalog.setThroughput(container, throughput);
    }

    public void deleteContainer(String databaseId, String id) {
        deleteData(catalog.deleteContainer(databaseId, id));
    }

    // ---- items

    public Items items(String databaseId, String containerId) {
        return items(catalog.container(databaseId, containerId));
    }

    public Items items(ContainerInfo container) {
        ContainerState state = state(container);
        return new Items(store, clock, limits, () -> {
            ContainerInfo now = catalog.current(container);
            if (now == null) {
                throw ServiceException.notFound("The container does not exist.");
            }
            return now;
        }, state, patchCondition);
    }

    // ---- queries

    /** Parses and validates a query (cached by text); errors are 400s. */
    public dev.partita.sql.SqlQuery parseQuery(String text) {
        return queries.parse(text);
    }

    /**
     * The query plan the SDK asks for before running a query (query-plans.md).
     *
     * @param supportedFeatures the client's {@code x-ms-cosmos-supported-query-features}, or null for the Java SDK's
     */
    public ObjectNode queryPlan(ContainerInfo container, String text, Map<String, JsonNode> params,
            java.util.Set<String> supportedFeatures) {
        return dev.partita.core.query.QueryPlans.plan(container, queries.parse(text), params, supportedFeatures);
    }

    /** One page of a query over one scope of the container; see {@link QueryExecutor}. */
    public QueryPage query(ContainerInfo container, QueryScope scope, String text, Map<String, JsonNode> params,
            String continuation, int maxItemCount) {
        ContainerInfo c = catalog.current(container);
        if (c == null) {
            throw ServiceException.notFound("The container does not exist.");
        }
        return queries.execute(c, lsn(c), scope, text, params, continuation, maxItemCount);
    }

    /** The container's current LSN (for session tokens on reads and feeds). */
    public long lsn(ContainerInfo container) {
        return state(container).lsn();
    }

    private ContainerState state(ContainerInfo c) {
        return states.computeIfAbsent(c.containerId(), id -> {
            byte[] v = store.get(StoreKeys.meta("lsn/" + id));
            return new ContainerState(v == null ? 0 : StoredItem.readLong(v));
        });
    }

    // ---- physical partitions

    /**
     * Splits one physical partition in two at the median EPK of its items (the middle of its key range when it has
     * too few distinct keys). Only metadata changes: the data is already ordered by EPK.
     */
    public ContainerInfo split(ContainerInfo container, String rangeId) {
        ContainerState state = state(container);
        state.writeLock().lock();
        try {
            ContainerInfo c = catalog.container(container.databaseId(), container.id());
            PhysicalPartition range = c.partitions().byId(rangeId);
            String point = medianEpk(c, range);
            if (point == null) {
                point = RangeBoundaries.midpoint(c.partitionKey(), range.minInclusive(), range.maxExclusive());
            }
            return catalog.split(c, rangeId, point);
        } finally {
            state.writeLock().unlock();
        }
    }

    /** The EPK of the middle item, if it lies strictly inside the range; else null. */
    private String medianEpk(ContainerInfo c, PhysicalPartition range) {
        byte[][] bounds = StoreKeys.itemRange(c.containerId(), range.minInclusive(), range.maxExclusive());
        List<String> epks = new ArrayList<>();
        try (Cursor cur = store.scan(bounds[0], bounds[1])) {
            while (cur.next()) {
                epks.add(StoreKeys.itemEpk(cur.key()));
            }
        }
        if (epks.isEmpty()) {
            return null;
        }
        String median = epks.get(epks.size() / 2);
        if (median.compareTo(range.minInclusive()) <= 0) {
            // the lower half is one logical partition: split just after it
            median = epks.stream().filter(e -> e.compareTo(range.minInclusive()) > 0).findFirst().orElse(null);
        }
        return median;
    }

    // ---- background work

    /** Removes expired items (TTL) and returns how many were purged. Driven by the injected clock. */
    public int sweepExpired() {
        long now = clock.millis() / 1000;
        int purged = 0;
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo c : catalog.containers(db.id())) {
                byte[] from = StoreKeys.containerStart(StoreKeys.ttlSpace(), c.containerId());
                byte[] to = StoreKeys.ttl(c.containerId(), now + 1, "", "");
                List<String[]> due = new ArrayList<>();
                try (Cursor cur = store.scan(from, to)) {
                    while (cur.next()) {
                        due.add(new String[] {StoreKeys.ttlEpk(cur.key()), StoreKeys.ttlId(cur.key())});
                    }
                }
                Items items = items(c);
                for (String[] d : due) {
                    if (items.purgeIfExpired(d[0], d[1], now)) {
                        purged++;
                    }
                }
            }
        }
        return purged;
    }

    /**
     * Drops change-log records older than {@link Limits#changeLogRetention()}, except each live item's latest
     * version, which the latest-version change feed serves "from the beginning" for the life of the container.
     * Returns how many records were dropped.
     */
    public int pruneChangeLog() {
        long cutoff = clock.millis() / 1000 - limits.changeLogRetention().toSeconds();
        int dropped = 0;
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo c : catalog.containers(db.id())) {
                WriteBatch batch = new WriteBatch();
                try (Cursor cur = store.scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                        StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
                    while (cur.next()) {
                        ChangeRecord r = ChangeRecord.decode(cur.value());
                        if (r.ts() >= cutoff) {
                            break;
                        }
                        if (!isLatestVersion(c, r)) {
                            batch.delete(cur.key());
                            dropped++;
                        }
                    }
                }
                if (!batch.isEmpty()) {
                    store.apply(batch);
                }
            }
        }
        return dropped;
    }

    private boolean isLatestVersion(ContainerInfo c, ChangeRecord r) {
        if (r.operation().isDelete()) {
            return false;
        }
        byte[] current = store.get(StoreKeys.item(c.containerId(), r.epk(), r.id()));
        return current != null && StoredItem.wrap(current).lsn() == r.lsn();
    }

    /** Starts the TTL sweeper and change-log pruning on a daemon thread, at the interval of {@link Limits#ttlSweepInterval()}. */
    public synchronized void startBackgroundTasks() {
        if (background != null) {
            return;
        }
        background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "partita-ttl-sweeper");
            t.setDaemon(true);
            return t;
        });
        long every = limits.ttlSweepInterval().toMillis();
        background.scheduleWithFixedDelay(() -> {
            try {
                sweepExpired();
                pruneChangeLog();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(Engine.class).warn("Background maintenance failed: {}",
                        e.toString());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    private void deleteData(ContainerInfo c) {
        states.remove(c.containerId());
        for (byte space : StoreKeys.dataSpaces()) {
            byte[] from = StoreKeys.containerStart(space, c.containerId());
            byte[] to = StoreKeys.containerEnd(space, c.containerId());
            WriteBatch batch = new WriteBatch();
            try (Cursor cur = store.scan(from, to)) {
                while (cur.next()) {
                    batch.delete(cur.key());
                    if (batch.size() >= DELETE_CHUNK) {
                        store.apply(batch);
                        batch = new WriteBatch();
                    }
                }
            }
            if (!batch.isEmpty()) {
                store.apply(batch);
            }
        }
        store.apply(new WriteBatch().delete(StoreKeys.meta("lsn/" + c.containerId())));
    }

    @Override
    public void close() {
        ScheduledExecutorService bg = background;
        if (bg != null) {
            bg.shutdownNow();
        }
        store.close();
    }
}
