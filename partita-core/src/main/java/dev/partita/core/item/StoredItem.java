package dev.partita.core.item;

import dev.partita.core.store.Bytes;
import java.nio.charset.StandardCharsets;

/**
 * The stored form of an item: a fixed header the engine reads without parsing JSON, then the item's JSON exactly as
 * a read returns it (user properties followed by the system properties). A point read hands out the JSON slice of
 * these bytes as they are.
 *
 * <pre>
 * [0]      format (1)
 * [1..8]   lsn of the write that produced this version (source of the etag and session token)
 * [9..16]  _ts, epoch seconds
 * [17..24] sequence of the item's _rid (fixed at creation)
 * [25..32] expiry, epoch seconds; 0 = never
 * [33..]   JSON
 * </pre>
 */
public final class StoredItem {
    static final int HEADER = 33;
    private static final byte FORMAT = 1;

    private final byte[] bytes;

    private StoredItem(byte[] bytes) {
        this.bytes = bytes;
    }

    public static StoredItem wrap(byte[] stored) {
        if (stored.length < HEADER || stored[0] != FORMAT) {
            throw new IllegalStateException("not a stored item (format " + (stored.length > 0 ? stored[0] : -1) + ")");
        }
        return new StoredItem(stored);
    }

    static StoredItem encode(long lsn, long ts, long ridSequence, long expiresAt, byte[] json) {
        byte[] b = new byte[HEADER + json.length];
        b[0] = FORMAT;
        Bytes.putLong(b, 1, lsn);
        Bytes.putLong(b, 9, ts);
        Bytes.putLong(b, 17, ridSequence);
        Bytes.putLong(b, 25, expiresAt);
        System.arraycopy(json, 0, b, HEADER, json.length);
        return new StoredItem(b);
    }

    /** The stored bytes (header + JSON). */
    public byte[] bytes() {
        return bytes;
    }

    public long lsn() {
        return Bytes.getLong(bytes, 1);
    }

    public long ts() {
        return Bytes.getLong(bytes, 9);
    }

    public long ridSequence() {
        return Bytes.getLong(bytes, 17);
    }

    public long expiresAt() {
        return Bytes.getLong(bytes, 25);
    }

    /** Visible to reads at {@code nowSeconds}: not expired. */
    public boolean isLiveAt(long nowSeconds) {
        long e = expiresAt();
        return e == 0 || nowSeconds < e;
    }

    /** The same version with another expiry (after the container's TTL setting changed). */
    StoredItem withExpiry(long expiresAt) {
        byte[] b = bytes.clone();
        Bytes.putLong(b, 25, expiresAt);
        return new StoredItem(b);
    }

    public int jsonOffset() {
        return HEADER;
    }

    public int jsonLength() {
        return bytes.length - HEADER;
    }

    /** A copy of the JSON; prefer {@link #bytes()} with {@link #jsonOffset()} on hot paths. */
    public byte[] json() {
        byte[] j = new byte[bytes.length - HEADER];
        System.arraycopy(bytes, HEADER, j, 0, j.length);
        return j;
    }

    public String jsonString() {
        return new String(bytes, HEADER, bytes.length - HEADER, StandardCharsets.UTF_8);
    }



}
