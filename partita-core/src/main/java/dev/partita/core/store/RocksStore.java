package dev.partita.core.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's store: one RocksDB database in a folder.
 *
 * <p>Durability: every batch goes to the write-ahead log before {@link #apply} returns, but by default without
 * {@code fsync}. The log then lives in the operating system's page cache, so killing the process (even with
 * {@code SIGKILL}) loses nothing acknowledged; losing power or the kernel may lose the last writes, never half of a
 * batch. {@link Settings#syncWrites()} trades write latency for surviving that too.
 *
 * <p>Tuned for what the engine does most: point reads of items (bloom filters, partitioned index and filter blocks in
 * a block cache, a hash index inside data blocks) and short range scans bounded by an upper key (so RocksDB can stop
 * early and skip files). Every native object is freed on close, including snapshots and cursors the caller left open.
 */
public final class RocksStore implements Store {
    private static final Logger LOG = LoggerFactory.getLogger(RocksStore.class);

    static {
        RocksNative.load();
    }

    /**
     * @param syncWrites     {@code fsync} the log on every batch: survives power loss, costs a disk flush per write
     * @param blockCacheBytes memory for uncompressed data, index and filter blocks
     */
    public record Settings(boolean syncWrites, long blockCacheBytes) {
        public static Settings defaults() {
            return new Settings(false, 256L << 20);
        }

        public Settings withSyncWrites(boolean sync) {
            return new Settings(sync, blockCacheBytes);
        }
    }

    final RocksDB db;
    final NativeRef ref = new NativeRef("the store", this::free);
    /** Snapshots and cursors still open, closed with the store so that no native handle outlives the database. */
    final Set<AutoCloseable> children = ConcurrentHashMap.newKeySet();
    private final Path dir;
    private final Options options;
    private final LRUCache cache;
    private final BloomFilter filter;
    private final WriteOptions writeOptions;
    private final ReadOptions readOptions;
    /** Reads that stop at the memtables and the block cache: a miss is {@code Incomplete} instead of a disk read. */
    private final ReadOptions cachedReads;

    public static RocksStore open(Path dir) {
        return open(dir, Settings.defaults());
    }

    public static RocksStore open(Path dir, Settings settings) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("cannot create the data folder " + dir + ": " + e, e);
        }
        return new RocksStore(dir, settings);
    }

    private RocksStore(Path dir, Settings settings) {
        this.dir = dir;
        // 16 shards: big enough for multi-megabyte item blocks; a fifth reserved for index and filter blocks.
        cache = new LRUCache(settings.blockCacheBytes(), 4, false, 0.2);
        filter = new BloomFilter(10);
        options = new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setFilterPolicy(filter)
                        .setWholeKeyFiltering(true)
                        // Partitioned: a monolithic index or filter of a large file can exceed a cache shard and
                        // would then be read and parsed again on every get (measured: 700 us instead of 5 us).
                        .setIndexType(IndexType.kTwoLevelIndexSearch)
                        .setPartitionFilters(true)
                        .setMetadataBlockSize(4096)
                        .setCacheIndexAndFilterBlocks(true)
                        .setCacheIndexAndFilterBlocksWithHighPriority(true)
                        .setPinTopLevelIndexAndFilter(true)
                        .setPinL0FilterAndIndexBlocksInCache(true)
                        .setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash))
                .setMemtableWholeKeyFiltering(true)
                .setMemtablePrefixBloomSizeRatio(0.05)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION)
                .setMaxBackgroundJobs(Math.max(2, Runtime.getRuntime().availableProcessors() / 2))
                .setBytesPerSync(1 << 20)
                .setKeepLogFileNum(4)
                .setMaxLogFileSize(8 << 20);
        writeOptions = new WriteOptions().setSync(settings.syncWrites());
        readOptions = new ReadOptions();
        cachedReads = new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);
        try {
            db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            closeOptions();
            String hint = String.valueOf(e.getMessage()).contains("lock")
                    ? " (is another process using this folder? stop it or choose another data folder)" : "";
            throw new StoreException("cannot open the RocksDB store in " + dir + ": " + e.getMessage() + hint, e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        ref.enter();
        try {
            return db.get(readOptions, key);
        } catch (RocksDBException e) {
            throw failure("read", e);
        } finally {
            ref.exit();
        }
    }

    /**
     * A get that RocksDB answers from the memtables and the block cache alone ({@link ReadTier#BLOCK_CACHE_TIER}): a
     * block it would have to read from a file (or a file not yet open) makes it give up with {@code Incomplete}, which
     * is "would wait". Nothing on that path waits for a writer: memtable reads take no lock; the read may take a
     * block-cache shard's mutex, or the database mutex once after a flush or compaction installed new files, each for
     * a moment (RocksDB holds neither across I/O).
     */
    @Override
    public Lookup getWithoutWaiting(byte[] key) {
        ref.enter();
        try {
            return Lookup.of(db.get(cachedReads, key));
        } catch (RocksDBException e) {
            if (e.getStatus() != null && e.getStatus().getCode() == Status.Code.Incomplete) {
                return Lookup.WOULD_WAIT;
            }
            throw failure("read", e);
        } finally {
            ref.exit();
        }
    }

    @Override
    public Cursor scan(byte[] fromInclusive, byte[] toExclusive) {
        return RocksCursor.open(this, null, ref, children, fromInclusive, toExclusive, false);
    }

    @Override
    public Cursor scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return RocksCursor.open(this, null, ref, children, fromInclusive, toExclusive, true);
    }

    @Override
    public void apply(WriteBatch batch) {
        ref.enter();
        try {
            if (!batch.isEmpty()) {
                write(batch);
            }
        } finally {
            ref.exit();
        }
    }

    private void write(WriteBatch batch) {
        try (org.rocksdb.WriteBatch nativeBatch = new org.rocksdb.WriteBatch()) {
            for (WriteBatch.Op op : batch.ops()) {
                if (op.isDelete()) {
                    nativeBatch.delete(op.key());
                } else {
                    nativeBatch.put(op.key(), op.value());
                }
            }
            db.write(writeOptions, nativeBatch);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    @Override
    public Snapshot snapshot() {
        ref.enter(); // handed to the snapshot, given back when it is freed
        RocksSnapshot snapshot;
        try {
            snapshot = new RocksSnapshot(this);
        } catch (RuntimeException e) {
            ref.exit();
            throw e;
        }
        return adopt(snapshot, children, ref);
    }

    /** Registers a child for closing with its parent; closes it at once if the parent closed meanwhile. */
    static <T extends AutoCloseable> T adopt(T child, Set<AutoCloseable> siblings, NativeRef parent) {
        siblings.add(child);
        if (parent.isClosed()) {
            closeQuietly(child);
            throw new IllegalStateException("closed while opening a snapshot or cursor");
        }
        return child;
    }

    @Override
    public void close() {
        if (ref.close()) {
            for (AutoCloseable child : children) {
                closeQuietly(child);
            }
        }
    }

    /** Snapshots RocksDB itself holds: lets tests prove that closing a snapshot releases it. */
    long nativeSnapshotCount() {
        ref.enter();
        try {
            return db.getLongProperty("rocksdb.num-snapshots");
        } catch (RocksDBException e) {
            throw failure("read a property of", e);
        } finally {
            ref.exit();
        }
    }

    StoreException failure(String action, RocksDBException e) {
        return new StoreException("cannot " + action + " the RocksDB store in " + dir + ": " + e.getMessage(), e);
    }

    private void free() {
        try {
            db.syncWal(); // a clean shutdown should survive power loss even without syncWrites
        } catch (RocksDBException e) {
            LOG.warn("could not sync the write-ahead log of {} on close: {}", dir, e.getMessage());
        }
        db.close();
        closeOptions();
    }

    private void closeOptions() {
        readOptions.close();
        cachedReads.close();
        writeOptions.close();
        options.close();
        filter.close();
        cache.close();
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("could not close {}: {}", c, e.toString());
        }
    }
}
