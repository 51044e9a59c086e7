package dev.partita.core.item;

import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.StoreReader;

/**
 * The size record of each logical partition ({@link StoreKeys#partitionSize}): the bytes its stored items take and
 * how many there are, kept by every write in the write's own transaction and deleted when the partition empties.
 * Totals over an EPK range read one record per logical partition and never an item.
 *
 * <p>Value: 8 bytes of size, then 8 bytes of item count. A record of 8 bytes (written before counts were kept) has
 * no count, which reads as 0.
 */
public final class PartitionSizes {
    private PartitionSizes() {
    }

    /** What a set of logical partitions stores: item bytes, item count, and how many logical partitions. */
    public record Total(long bytes, long items, long logicalPartitions) {
    }

    /** The record's new value after adding {@code bytes} and {@code items}; null when the partition is left empty. */
    static byte[] add(byte[] record, long bytes, long items) {
        long size = bytes(record) + bytes;
        long count = Math.max(0, items(record) + items);
        if (size <= 0) {
            return null;
        }
        byte[] v = new byte[16];
        Bytes.putLong(v, 0, size);
        Bytes.putLong(v, 8, count);
        return v;
    }

    static long bytes(byte[] record) {
        return Bytes.longValue(record);
    }

    private static long items(byte[] record) {
        return record == null || record.length < 16 ? 0 : Bytes.getLong(record, 8);
    }

    /** The totals of the container's logical partitions whose EPK lies in [minInclusive, maxExclusive). */
    public static Total total(StoreReader store, int containerId, String minInclusive, String maxExclusive) {
        long bytes = 0;
        long items = 0;
        long partitions = 0;
        try (Cursor cur = store.scan(StoreKeys.partitionSize(containerId, minInclusive),
                StoreKeys.partitionSize(containerId, maxExclusive))) {
            while (cur.next()) {
                bytes += bytes(cur.value());
                items += items(cur.value());
                partitions++;
            }
        }
        return new Total(bytes, items, partitions);
    }
}
