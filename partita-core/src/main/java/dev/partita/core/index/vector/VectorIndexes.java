package dev.partita.core.index.vector;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.item.StoredItem;
import dev.partita.core.json.Json;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.search.VectorEmbedding;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The approximate indexes of every container's {@code quantizedFlat} and {@code diskANN} vector paths.
 *
 * <p>A Lucene graph cannot take part in the store's transactions, so it is not kept in the store: it is built from
 * the store the first time a query needs it (after the engine opens, or after the container's policy changes: a new
 * policy is a new index) and then kept current from the committed writes, replayed from the container's change log
 * up to the LSN of the snapshot the query reads (a log already pruned past the index's position rebuilds it).
 * Correctness never depends on it: it only proposes candidate items, which the query reads from its snapshot and
 * scores exactly; an item the graph misses costs recall, never a wrong row.
 */
public final class VectorIndexes implements AutoCloseable {
    /** Lucene's HNSW format holds at most this many dimensions; longer vectors are searched exactly. */
    public static final int MAX_GRAPH_DIMENSIONS = 1024;

    private final Map<String, Entry> indexes = new HashMap<>();

    private static final class Entry {
        final String signature;
        final AnnIndex index;
        long lsn = -1;
        /** While the build runs over several requests: the item key it resumes at, and the LSN it started at. */
        byte[] buildFrom;
        long buildLsn;

        Entry(String signature, AnnIndex index) {
            this.signature = signature;
            this.index = index;
        }
    }

    /** What an approximate search found: candidate item keys nearest first, and how many vectors the index holds. */
    public record Candidates(List<byte[]> keys, long indexed) {
    }

    /**
     * The about-{@code k} nearest items to {@code query} in {@code [from, to)}, from the index of the container's
     * path brought up to the snapshot's LSN; null when the path has no approximate index the graph can hold, or
     * when building it takes more than is left of {@code deadline} (see {@link #build}).
     */
    public Candidates nearest(ContainerInfo c, Snapshot snapshot, String path, float[] query, int k, byte[] from,
            byte[] to, Deadline deadline) {
        VectorPolicy.VectorIndex spec = c.search().vectors().index(path);
        VectorEmbedding embedding = c.search().embedding(path);
        if (spec == null || !spec.type().approximate() || embedding == null
                || embedding.dimensions() > MAX_GRAPH_DIMENSIONS || query.length != embedding.dimensions()) {
            return null;
        }
        Entry e = current(c, snapshot, path, embedding, deadline);
        if (e == null) {
            return null;
        }
        return new Candidates(e.index.nearest(query, k, from, to), e.index.size());
    }

    /** Memory held by the graph of a path (0 before it is built): what the benchmarks report per vector. */
    public synchronized long ramBytes(ContainerInfo c, String path) {
        Entry e = indexes.get(c.containerId() + path);
        return e == null ? 0 : e.index.ramBytes();
    }

    /** The path's index brought up to the snapshot, or null while its build is not done (see {@link #build}). */
    private synchronized Entry current(ContainerInfo c, Snapshot snapshot, String path, VectorEmbedding embedding,
            Deadline deadline) {
        String name = c.containerId() + path;
        String signature = c.rid() + "|" + embedding + "|" + c.search().vectors().index(path);
        Entry e = indexes.get(name);
        long floor = Bytes.longValue(snapshot.get(StoreKeys.changeLogFloor(c.containerId())));
        boolean stale = e != null && e.buildFrom == null && e.lsn >= 0 && floor > e.lsn;
        if (e == null || !e.signature.equals(signature) || stale) {
            if (e != null) {
                e.index.close();
            }
            e = new Entry(signature, new AnnIndex(embedding.distance()));
            indexes.put(name, e);
        }
        long lsn = Bytes.longValue(snapshot.get(StoreKeys.containerLsn(c.containerId())));
        if (e.lsn == lsn) {
            return e;
        }
        if (e.lsn < 0) {
            if (!build(c, snapshot, path, embedding, e, lsn, deadline)) {
                return null;
            }
            if (floor > e.buildLsn) {
                indexes.remove(name).index.close(); // the log no longer has the writes made during the build
                return null;
            }
            e.lsn = e.buildLsn;
        }
        replay(c, snapshot, path, embedding, e, lsn);
        e.lsn = lsn;
        return e;
    }

    /**
     * Builds the graph by one scan of the container, spread over as many requests as it takes: each adds the vectors
     * from where the last one stopped until its deadline (one item at least; Lucene builds the graph as vectors are
     * added, so the work per item is bounded) and returns false while items remain; the query then scores exactly,
     * within what is left of its budget. The parts come from different snapshots, so the build ends by replaying
     * the writes made since it started.
     */
    private static boolean build(ContainerInfo c, Snapshot snapshot, String path, VectorEmbedding embedding, Entry e,
            long lsn, Deadline deadline) {
        byte[][] all = StoreKeys.containerItems(c.containerId());
        if (e.buildFrom == null) {
            e.buildFrom = all[0];
            e.buildLsn = lsn;
        }
        try (Cursor cursor = snapshot.scan(e.buildFrom, all[1])) {
            boolean any = false;
            while (cursor.next()) {
                if (any && deadline.passed()) {
                    e.buildFrom = cursor.key().clone();
                    return false;
                }
                e.index.put(cursor.key(), vector(cursor.value(), path, embedding));
                any = true;
            }
        }
        e.buildFrom = null;
        e.index.optimize();
        return true;
    }

    /** Applies the writes committed after the index's LSN (each record names the item; its current state decides). */
    private static void replay(ContainerInfo c, Snapshot snapshot, String path, VectorEmbedding embedding, Entry e,
            long lsn) {
        try (Cursor cursor = snapshot.scan(StoreKeys.log(c.containerId(), e.lsn + 1),
                StoreKeys.log(c.containerId(), lsn + 1))) {
            while (cursor.next()) {
                ChangeRecord.Header h = ChangeRecord.peek(cursor.value());
                byte[] key = StoreKeys.item(c.containerId(), h.epk(), h.id());
                e.index.put(key, vector(snapshot.get(key), path, embedding));
            }
        }
    }

    /** The item's vector at the path as its data type holds it, or null (absent, expired, not a vector). */
    private static float[] vector(byte[] raw, String path, VectorEmbedding embedding) {
        if (raw == null) {
            return null;
        }
        StoredItem item = StoredItem.wrap(raw);
        JsonNode v = Json.parse(item.json(), "stored item").at(path);
        return v.size() == embedding.dimensions() ? embedding.vectorOf(v) : null;
    }

    @Override
    public synchronized void close() {
        indexes.values().forEach(e -> e.index.close());
        indexes.clear();
    }
}
