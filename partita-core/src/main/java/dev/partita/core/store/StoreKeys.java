package dev.partita.core.store;

import java.nio.charset.StandardCharsets;

/**
 * The one place that knows the key layout. Every key starts with a one-byte space tag and, below metadata, the
 * 4-byte container id, so a container is a key interval; items are ordered by (container, EPK, id), so a physical
 * partition is an EPK interval and a split changes metadata, not data. EPKs are stored as their upper-case hex text
 * followed by 0x00: text order equals the service's EPK string order, and the 0x00 keeps a shorter EPK before a longer
 * one that extends it.
 */
public final class StoreKeys {
    private StoreKeys() {
    }

    static final byte META = 0x01;
    static final byte ITEM = 0x02;
    static final byte LOG = 0x03;
    static final byte UNIQUE = 0x04;
    static final byte TTL = 0x05;
    static final byte PARTITION_SIZE = 0x06;
    static final byte INDEX = 0x07;
    static final byte PARTITION_DELETE = 0x08;
    static final byte SCRIPT = 0x09;

    /** A metadata record: the account's catalog (databases, containers, offers, users, counters). */
    public static byte[] meta(String name) {
        byte[] n = utf8(name);
        byte[] k = new byte[1 + n.length];
        k[0] = META;
        System.arraycopy(n, 0, k, 1, n.length);
        return k;
    }


    public static byte[] item(int container, String epk, String id) {
        return withEpk(ITEM, container, epk, utf8(id));
    }

    /** First key of the items whose EPK is at least {@code epk}. */
    public static byte[] itemFloor(int container, String epk) {
        return withEpk(ITEM, container, epk, new byte[0], false);
    }

    /** The items of one container whose EPK lies in [min, max) (EPKs are hex text, all below the maximum EPK). */
    public static byte[][] itemRange(int container, String minInclusive, String maxExclusive) {
        return new byte[][] {itemFloor(container, minInclusive), itemFloor(container, maxExclusive)};
    }

    /** Every item of one container. */
    public static byte[][] containerItems(int container) {
        return new byte[][] {containerStart(ITEM, container), containerEnd(ITEM, container)};
    }

    /** The change log's pruning mark of a container: the largest LSN whose record pruning dropped. */
    public static byte[] changeLogFloor(int container) {
        return meta("changefeed-floor/" + container);
    }

    /**
     * The record of a container's LSNs: its committed watermark (every LSN at or below it committed; the first 8 bytes,
     * what readers of a snapshot read up to), then the largest LSN committed ({@code item.LsnSequence}).
     */
    public static byte[] containerLsn(int container) {
        return meta("lsn/" + container);
    }

    /** The items of one logical partition (one exact EPK). */
    public static byte[][] logicalPartition(int container, String epk) {
        byte[] from = withEpk(ITEM, container, epk, new byte[0]);
        byte[] to = from.clone();
        to[to.length - 1] = 0x01;
        return new byte[][] {from, to};
    }

    public static byte[] log(int container, long lsn) {
        byte[] k = containerPrefix(LOG, container, 8);
        Bytes.putLong(k, 5, lsn);
        return k;
    }

    public static byte[] unique(int container, String epk, int policyIndex, byte[] canonicalValues) {
        byte[] tail = new byte[1 + canonicalValues.length];
        tail[0] = (byte) policyIndex;
        System.arraycopy(canonicalValues, 0, tail, 1, canonicalValues.length);
        return withEpk(UNIQUE, container, epk, tail);
    }

    public static byte[] ttl(int container, long expiresAtSeconds, String epk, String id) {
        byte[] e = utf8(epk);
        byte[] i = utf8(id);
        byte[] k = containerPrefix(TTL, container, 8 + e.length + 1 + i.length);
        Bytes.putLong(k, 5, expiresAtSeconds);
        System.arraycopy(e, 0, k, 13, e.length);
        System.arraycopy(i, 0, k, 14 + e.length, i.length);
        return k;
    }

    /**
     * An index entry: the term (property path and value, encoded by the index package so that keys order by path,
     * then value) followed by the item's EPK and id, so a lookup reads a value range of one path in one scan.
     */
    public static byte[] index(int container, byte[] term, String epk, String id) {
        byte[] i = utf8(id);
        int el = epk.length();
        byte[] k = containerPrefix(INDEX, container, term.length + el + 1 + i.length);
        System.arraycopy(term, 0, k, 5, term.length);
        for (int j = 0; j < el; j++) {
            k[5 + term.length + j] = (byte) epk.charAt(j);
        }
        k[5 + term.length + el] = 0;
        System.arraycopy(i, 0, k, 6 + term.length + el, i.length);
        return k;
    }

    /** The first key of the index entries whose term starts with {@code termPrefix}. */
    public static byte[] indexPrefix(int container, byte[] termPrefix) {
        byte[] k = containerPrefix(INDEX, container, termPrefix.length);
        System.arraycopy(termPrefix, 0, k, 5, termPrefix.length);
        return k;
    }

    /** Where the term starts in an index entry key. */
    public static int indexTermOffset() {
        return 5;
    }

    public static byte indexSpace() {
        return INDEX;
    }

    public static byte[] partitionSize(int container, String epk) {
        return withEpk(PARTITION_SIZE, container, epk, new byte[0]);
    }

    /**
     * A pending delete of every item of one logical partition (one exact EPK): its value is the LSN of the request,
     * and the items written at or before it are gone for reads until the background removes them.
     */
    public static byte[] partitionDelete(int container, String epk) {
        return withEpk(PARTITION_DELETE, container, epk, new byte[0], false);
    }

    /** The pending partition deletes of one container. */
    public static byte[][] partitionDeletes(int container) {
        return new byte[][] {containerStart(PARTITION_DELETE, container), containerEnd(PARTITION_DELETE, container)};
    }

    /** The EPK of a pending partition delete's key. */
    public static String partitionDeleteEpk(byte[] key) {
        return new String(key, 5, key.length - 5, StandardCharsets.US_ASCII);
    }

    /**
     * A script resource of a container (stored procedure, trigger or user-defined function): {@code kind} is a
     * one-byte tag of its kind (0 for the container's script counter), then the id.
     */
    public static byte[] script(int container, byte kind, String id) {
        byte[] i = utf8(id);
        byte[] k = containerPrefix(SCRIPT, container, 1 + i.length);
        k[5] = kind;
        System.arraycopy(i, 0, k, 6, i.length);
        return k;
    }

    /** Every script of one kind of a container. */
    public static byte[][] scripts(int container, byte kind) {
        byte[] from = script(container, kind, "");
        return new byte[][] {from, prefixEnd(from)};
    }

    /** The first key of the space for this container. */
    public static byte[] containerStart(byte space, int container) {
        return containerPrefix(space, container, 0);
    }

    /** The first key after the space for this container. */
    public static byte[] containerEnd(byte space, int container) {
        byte[] k = containerPrefix(space, container, 0);
        long next = (container & 0xFFFFFFFFL) + 1;
        if (next > 0xFFFFFFFFL) {
            return new byte[] {(byte) (space + 1)};
        }
        writeInt(k, 1, (int) next);
        return k;
    }

    /** Every space that holds data of a container, for deleting it. */
    public static byte[] dataSpaces() {
        return new byte[] {ITEM, LOG, UNIQUE, TTL, PARTITION_SIZE, INDEX, PARTITION_DELETE, SCRIPT};
    }


    public static byte logSpace() {
        return LOG;
    }

    public static byte ttlSpace() {
        return TTL;
    }

    // ---- decoding

    /** The id part of an item key. */
    public static String itemId(byte[] key) {
        int sep = indexOf(key, 5, (byte) 0);
        return new String(key, sep + 1, key.length - sep - 1, StandardCharsets.UTF_8);
    }

    /** The EPK part of an item key. */
    public static String itemEpk(byte[] key) {
        int sep = indexOf(key, 5, (byte) 0);
        return new String(key, 5, sep - 5, StandardCharsets.US_ASCII);
    }

    /** The EPK part of a logical partition's size key. */
    public static String partitionSizeEpk(byte[] key) {
        return itemEpk(key);
    }

    public static long logLsn(byte[] key) {
        return Bytes.getLong(key, 5);
    }


    public static String ttlEpk(byte[] key) {
        int sep = indexOf(key, 13, (byte) 0);
        return new String(key, 13, sep - 13, StandardCharsets.US_ASCII);
    }

    public static String ttlId(byte[] key) {
        int sep = indexOf(key, 13, (byte) 0);
        return new String(key, sep + 1, key.length - sep - 1, StandardCharsets.UTF_8);
    }


    /** The smallest key greater than every key starting with {@code prefix}; null when there is none. */
    public static byte[] prefixEnd(byte[] prefix) {
        return Bytes.prefixEnd(prefix);
    }

    // ---- helpers

    private static byte[] withEpk(byte space, int container, String epk, byte[] tail) {
        return withEpk(space, container, epk, tail, true);
    }

    private static byte[] withEpk(byte space, int container, String epk, byte[] tail, boolean separator) {
        int el = epk.length();
        byte[] k = containerPrefix(space, container, el + (separator ? 1 : 0) + tail.length);
        for (int i = 0; i < el; i++) {
            k[5 + i] = (byte) epk.charAt(i);
        }
        if (separator) {
            k[5 + el] = 0;
        }
        System.arraycopy(tail, 0, k, 5 + el + (separator ? 1 : 0), tail.length);
        return k;
    }

    private static byte[] containerPrefix(byte space, int container, int extra) {
        byte[] k = new byte[5 + extra];
        k[0] = space;
        writeInt(k, 1, container);
        return k;
    }

    private static int indexOf(byte[] a, int from, byte b) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return a.length;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void writeInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }


}
