package dev.partita.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.Catalog;
import dev.partita.core.account.ClientEncryptionKeys;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Offers;
import dev.partita.core.account.Throughput;
import dev.partita.core.account.Users;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.capacity.CostModel;
import dev.partita.core.error.ServiceException;
import dev.partita.core.fault.Faults;
import dev.partita.core.item.ContainerState;
import dev.partita.core.item.ContainerStates;
import dev.partita.core.item.Items;
import dev.partita.core.item.PatchCondition;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.ApiVersion;
import dev.partita.core.script.ScriptCatalog;
import dev.partita.core.script.ScriptRuntime;
import dev.partita.core.stats.ContainerStatistics;
import dev.partita.core.store.Store;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The engine of one emulated account, and its one entry point: databases, containers and their requests
 * ({@link #container} gives a container's {@link ContainerHandle}, which runs each request through routing,
 * admission, pricing and charging), offers, users and permissions, over one {@link Store}. Thread-safe; the gateway
 * and in-process callers (the JUnit extension, the tools) use the same methods and get the same charges and 429s.
 */
public final class Engine implements AutoCloseable {
    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Catalog catalog;
    private final PatchCondition patchCondition;
    private final ReadRequests reads;
    private final Capacity capacity;
    private final ContainerStates states;
    private final Splits splits;
    private final Maintenance maintenance;
    private final Offers offers;
    private final Users users;
    private final ClientEncryptionKeys encryptionKeys;
    private final Faults faults = new Faults();
    private final StatisticsReader statistics;
    private final ScriptCatalog scriptCatalog;
    private final ScriptRuntime scriptRuntime;

    private Engine(Store store, Clock clock, Limits limits, PatchCondition patchCondition) {
        this.store = Objects.requireNonNull(store);
        this.clock = Objects.requireNonNull(clock);
        this.limits = Objects.requireNonNull(limits);
        this.patchCondition = Objects.requireNonNull(patchCondition);
        this.catalog = new Catalog(store, clock, limits);
        this.capacity = new Capacity(clock, limits, CostModel.DEFAULT, catalog::databaseByRid);
        this.states = new ContainerStates(store);
        this.splits = new Splits(store, clock, limits, catalog, states, capacity.stats());
        this.maintenance = new Maintenance(store, clock, limits, catalog, splits, capacity, this::items);
        // offers and users keep small metadata records whose counters must not interleave: one lock for both
        Object metadataLock = new Object();
        this.offers = new Offers(store, catalog, clock, limits, metadataLock, new OfferThroughput(this));
        this.users = new Users(store, catalog, clock, limits, metadataLock);
        this.encryptionKeys = new ClientEncryptionKeys(store, clock, limits, metadataLock);
        this.scriptCatalog = new ScriptCatalog(store, clock, limits);
        this.scriptRuntime = new ScriptRuntime(limits);
        this.reads = new ReadRequests(store, clock, limits, scriptCatalog, scriptRuntime, this::lsn);
        this.statistics = new StatisticsReader(store, clock, capacity);
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

    /** Request charges, per-partition budgets and their enforcement (429s). */
    public Capacity capacity() {
        return capacity;
    }

    /** Injected faults (429, 410/1002, 503, 408, delays) for testing clients' retry logic; none unless added. */
    public Faults faults() {
        return faults;
    }

    /** The account's offers: one per database or container with provisioned throughput. */
    public Offers offers() {
        return offers;
    }

    /** The account's users and permissions (what resource tokens are minted from). */
    public Users users() {
        return users;
    }

    /** The databases' client encryption keys (client-side encryption's wrapped data keys). */
    public ClientEncryptionKeys clientEncryptionKeys() {
        return encryptionKeys;
    }

    // ---- databases

    public DatabaseInfo createDatabase(ObjectNode body, Throughput throughput) {
        return catalog.createDatabase(body, checked(throughput));
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
        return catalog.setDatabaseThroughput(id, checked(throughput));
    }

    /** Deletes a database with its containers, their data, its users and permissions and its encryption keys. */
    public void deleteDatabase(String id) {
        DatabaseInfo db = catalog.database(id);
        for (ContainerInfo c : catalog.deleteDatabase(id)) {
            states.erase(c);
            capacity.stats().forget(c.containerId());
        }
        users.deleteDatabase(db.rid());
        encryptionKeys.deleteDatabase(db.rid());
    }

    // ---- containers

    /**
     * Creates a container; its physical partition count follows the documented rule for its throughput unless
     * {@code explicitPartitions} is positive.
     */
    public ContainerInfo createContainer(String databaseId, ObjectNode body, Throughput throughput,
            int explicitPartitions) {
        return createContainer(databaseId, body, throughput, explicitPartitions, ApiVersion.CURRENT);
    }

    /**
     * Like {@link #createContainer(String, ObjectNode, Throughput, int)} for a request naming an API version: before
     * 2018-12-31 a body without a partition key makes a non-partitioned container (one partition, the system key).
     */
    public ContainerInfo createContainer(String databaseId, ObjectNode body, Throughput throughput,
            int explicitPartitions, ApiVersion version) {
        Throughput own = ownThroughput(databaseId, checked(throughput));
        ContainerInfo created = catalog.createContainer(databaseId, body, own, explicitPartitions, version);
        capacity.started(created);
        return created;
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

    /** Replaces a container's properties; a new default TTL or indexing policy applies to the items already there. */
    public ContainerInfo replaceContainer(String databaseId, String id, ObjectNode body) {
        ContainerInfo before = catalog.container(databaseId, id);
        ContainerState state = states.of(before);
        state.allWriters().lock();
        try {
            ContainerInfo after = catalog.replaceContainer(databaseId, id, body);
            if (!Objects.equals(before.defaultTtl(), after.defaultTtl())) {
                items(after).recomputeExpiry();
            }
            if (!Objects.equals(before.indexingPolicy().source(), after.indexingPolicy().source())) {
                items(after).reindex();
            }
            return after;
        } finally {
            state.allWriters().unlock();
        }
    }

    /**
     * Sets a container's own throughput; it takes effect at once. Raising it beyond partitions x
     * {@link Limits#maxPhysicalPartitionRus()} splits partitions until there are enough (capacity.md §2.6), at once or
     * {@link Limits#throughputSplitDelay()} later; lowering it never merges.
     */
    public ContainerInfo setThroughput(ContainerInfo container, Throughput throughput) {
        return splits.throughputChanged(catalog.setThroughput(container, checked(throughput)));
    }

    /** Whether a throughput increase on this container is still waiting for its splits. */
    public boolean throughputSplitPending(ContainerInfo container) {
        return splits.pending(container);
    }

    /** Deletes a container with its data, once no write of it is running (a write waiting behind it then gets 404). */
    public void deleteContainer(String databaseId, String id) {
        ContainerState state = states.of(catalog.container(databaseId, id));
        state.allWriters().lock();
        try {
            ContainerInfo gone = catalog.deleteContainer(databaseId, id);
            states.erase(gone);
            capacity.stats().forget(gone.containerId());
        } finally {
            state.allWriters().unlock();
        }
    }

    /**
     * A container created without throughput outside a shared-throughput database of a provisioned account gets the
     * service's default, {@link Limits#defaultContainerRus()} manual, as its own: it has an offer, which can be read
     * and replaced. In a shared-throughput database (or a serverless account) it has none.
     */
    private Throughput ownThroughput(String databaseId, Throughput asked) {
        boolean shared = catalog.database(databaseId).throughput().isProvisioned();
        if (asked.isProvisioned() || shared || capacity.isServerless()) {
            return asked;
        }
        return Throughput.manual(limits.defaultContainerRus());
    }

    /** Validates requested throughput against the account's limits; a serverless account takes none. */
    private Throughput checked(Throughput throughput) {
        if (capacity.isServerless() && throughput.isProvisioned()) {
            throw ServiceException.badRequest("Setting offer throughput or autopilot on a serverless account is not"
                    + " supported; create the resource without throughput.");
        }
        return Offers.validate(throughput, limits);
    }

    // ---- requests

    /** The requests of a container, by name. 404 when the database or container does not exist. */
    public ContainerHandle container(String databaseId, String containerId) {
        return container(catalog.container(databaseId, containerId));
    }

    /** The requests of a container already looked up (it stays current across replaces and splits). */
    public ContainerHandle container(ContainerInfo container) {
        return new ContainerHandle(this, items(container), capacity);
    }

    /**
     * {@link #container(ContainerInfo)} when getting it cannot wait, else null: a throughput split that fell due runs
     * on the next request (it rewrites metadata with every writer held), and a container's run-time state is loaded
     * from the store on its first request (which waits unless the store's reads never do). For the point read
     * answered without waiting ({@link ContainerHandle#readWithoutWaiting}).
     */
    public ContainerHandle containerWithoutWaiting(ContainerInfo container) {
        ContainerState state = store.readsNeverBlock() ? states.of(container) : states.loaded(container);
        return state == null || splits.due() ? null : new ContainerHandle(this, items(container, state), capacity);
    }

    /** The server-side scripts of a container: their resources, stored procedure execution, triggered writes. */
    public ContainerScripts scripts(ContainerInfo container) {
        return new ContainerScripts(this, container(container), items(container), capacity, scriptCatalog,
                scriptRuntime);
    }

    private Items items(ContainerInfo container) {
        splits.runDue();
        return items(container, states.of(container));
    }

    private Items items(ContainerInfo container, ContainerState state) {
        return new Items(store, clock, limits, () -> {
            ContainerInfo now = catalog.current(container);
            if (now == null) {
                throw ServiceException.notFound("The container does not exist.");
            }
            return now;
        }, state, patchCondition);
    }

    /** Memory held by the approximate vector index of a container path (0 until a query builds it). */
    public long vectorIndexBytes(ContainerInfo c, String path) {
        return reads.vectorIndexBytes(c, path);
    }

    /** The query and change-feed pages of the containers' requests. */
    ReadRequests reads() {
        return reads;
    }

    /** The container's current LSN (for session tokens on reads and feeds). */
    public long lsn(ContainerInfo container) {
        return states.of(container).lsn();
    }

    /**
     * What a request the engine refused is charged: the price the engine put on it, else the cost model's price of
     * a failure with its status (429s are free).
     */
    public double chargeOf(ServiceException refused) {
        double ru = refused.requestCharge();
        return Double.isNaN(ru) ? capacity.costs().failed(refused.status()) : ru;
    }

    /**
     * A query over account resources (databases, containers, offers, users, permissions, scripts) as JSON, in the SQL
     * of item queries: the rows it selects; 400 with the service's error list when it does not compile.
     */
    public List<JsonNode> queryResources(List<? extends JsonNode> resources, String text,
            Map<String, JsonNode> params) {
        return reads.queryResources(resources, text, params);
    }

    /** The charge of a metadata request (databases, containers, offers, users, permissions, partition key ranges). */
    public double metadataCharge() {
        return capacity.costs().metadata();
    }

    // ---- physical partitions and background work

    /**
     * The container's per-partition statistics: RU and 429s per second over the last {@code seconds} (at most
     * {@link dev.partita.core.capacity.PartitionMeter#SECONDS}), budgets, storage, item counts, splits, and the
     * {@code top} busiest and largest logical partitions. Scans the container's keys: for tools, not requests.
     */
    public ContainerStatistics statistics(ContainerInfo container, int seconds, int top) {
        ContainerInfo now = catalog.current(container);
        if (now == null) {
            throw ServiceException.notFound("The container does not exist.");
        }
        return statistics.read(now, seconds, top);
    }

    /** Splits one physical partition in two at the median EPK of its items; only metadata changes. */
    public ContainerInfo split(ContainerInfo container, String rangeId) {
        return splits.split(container, rangeId);
    }

    /** Runs the throughput splits that have fallen due. */
    public void runDueSplits() {
        splits.runDue();
    }

    /** Splits every partition over the physical partition limit (capacity.md §2.6); returns how many splits. */
    public int splitOversizedPartitions() {
        return splits.splitOversized();
    }

    /** Removes expired items (TTL) and returns how many were purged. Driven by the injected clock. */
    public int sweepExpired() {
        return maintenance.sweepExpired();
    }

    /**
     * Removes items of deleted partition keys, each physical partition within its share of throughput
     * ({@link Limits#partitionKeyDeletePercent()} of its RU/s per {@link Limits#ttlSweepInterval()}); returns how many.
     */
    public int removeDeletedItems() {
        return maintenance.removeDeletedItems();
    }

    /** Drops change-log records past each container's retention window; returns how many. */
    public int pruneChangeLog() {
        return maintenance.pruneChangeLog();
    }

    /**
     * Starts the TTL sweep, the removal of deleted partition keys' items, change-log pruning and splits on a daemon
     * thread ({@link Limits#ttlSweepInterval()}).
     */
    public void startBackgroundTasks() {
        maintenance.start();
    }

    @Override
    public void close() {
        maintenance.close();
        reads.close();
        scriptRuntime.close();
        store.close();
    }
}
