package dev.partita.core.capacity;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The account's per-partition statistics: one {@link PartitionMeter} per physical partition of each container (kept
 * after a split, so a parent's history stays readable), and the splits each container went through. Fed by
 * {@link Capacity} where requests are admitted and charged, and by the engine's splits; read by the explorer and the
 * metrics. Thread-safe.
 */
public final class PartitionStats {
    /** Splits remembered per container (the oldest are forgotten first). */
    static final int MAX_SPLITS = 64;

    private final Map<Long, PartitionMeter> meters = new ConcurrentHashMap<>();
    private final Map<Integer, Deque<Split>> splits = new ConcurrentHashMap<>();

    /** A physical partition (with its EPK range) that split into {@code children} at {@code atMillis}. */
    public record Split(String parent, String minInclusive, String maxExclusive, List<String> children,
            long atMillis) {
        public Split {
            children = List.copyOf(children);
        }
    }

    /** The meter of a container's physical partition (created on first use). */
    public PartitionMeter meter(int containerId, String rangeId) {
        return meters.computeIfAbsent(key(containerId, rangeId), k -> new PartitionMeter());
    }

    /** The meter if the partition has one, else null (reading never creates one). */
    public PartitionMeter existing(int containerId, String rangeId) {
        return meters.get(key(containerId, rangeId));
    }

    public void split(int containerId, Split split) {
        Deque<Split> log = splits.computeIfAbsent(containerId, k -> new ArrayDeque<>());
        synchronized (log) {
            log.addLast(split);
            if (log.size() > MAX_SPLITS) {
                log.removeFirst();
            }
        }
    }

    /** The container's splits, oldest first. */
    public List<Split> splits(int containerId) {
        Deque<Split> log = splits.get(containerId);
        if (log == null) {
            return List.of();
        }
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /** Forgets a deleted container. */
    public void forget(int containerId) {
        meters.keySet().removeIf(k -> (int) (k >>> 32) == containerId);
        splits.remove(containerId);
    }

    /** Range ids are the decimal numbers the catalog hands out, so (container, range) packs into one long. */
    private static long key(int containerId, String rangeId) {
        return ((long) containerId << 32) | (Integer.parseInt(rangeId) & 0xFFFFFFFFL);
    }
}
