package dev.partita.core.capacity;

import dev.partita.core.partition.PartitionKeyValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one physical partition of one container consumed: request units and 429s per second of the injected clock
 * over the last {@link #SECONDS} seconds, their totals since the engine started, and the request units of its
 * busiest logical partitions over the last one to two minutes. Lock-free: recording a charge is a compare-and-set on
 * the second's slot, two adder increments and, for point operations, one map lookup.
 *
 * <p>Each slot packs the second it counts (low 24 bits of the epoch second) with its value, so a slot left over from
 * an earlier lap of the ring is recognised and restarted by the first charge of its new second, without a lock.
 */
public final class PartitionMeter {
    /** How many seconds of history are kept. */
    public static final int SECONDS = 300;
    /** Logical partitions tracked per generation; later ones in a full generation count only in the partition. */
    static final int MAX_KEYS = 256;
    /** How long one generation of logical-partition usage lasts; the top keys cover the current and previous one. */
    static final long KEY_GENERATION_MILLIS = 60_000;
    private static final int STAMP_BITS = 24;
    private static final long STAMP_MASK = (1L << STAMP_BITS) - 1;
    private static final long VALUE_MASK = (1L << (64 - STAMP_BITS)) - 1;

    /** Hundredths of a request unit per second (every charge is kept to hundredths). */
    private final AtomicLongArray centiRu = new AtomicLongArray(SECONDS);
    private final AtomicLongArray throttled = new AtomicLongArray(SECONDS);
    /** Hundredths of the RU/s the second's charges were made against (the last one wins: it rarely changes). */
    private final AtomicLongArray centiBudget = new AtomicLongArray(SECONDS);
    private final LongAdder totalCentiRu = new LongAdder();
    private final LongAdder totalThrottled = new LongAdder();
    private volatile KeyGeneration current = new KeyGeneration(Long.MIN_VALUE);
    private volatile KeyGeneration previous = new KeyGeneration(Long.MIN_VALUE);

    /** One logical partition's request units in a generation; the key value is kept to name it on request. */
    private record KeyUse(PartitionKeyValue key, DoubleAdder ru) {
    }

    private static final class KeyGeneration {
        final long startMillis;
        final Map<String, KeyUse> byEpk = new ConcurrentHashMap<>();

        KeyGeneration(long startMillis) {
            this.startMillis = startMillis;
        }

        boolean covers(long nowMillis) {
            return nowMillis >= startMillis && nowMillis < startMillis + KEY_GENERATION_MILLIS;
        }
    }

    /** A logical partition's request units over the current and previous generation. */
    public record LogicalUsage(String epk, PartitionKeyValue key, double ru) {
    }

    /**
     * Records a charge of {@code ru} at {@code nowMillis} against a budget of {@code rate} RU/s; {@code epk} and
     * {@code key} name the logical partition, or are null (not a point operation).
     */
    public void charged(long nowMillis, double ru, double rate, String epk, PartitionKeyValue key) {
        long centi = Math.round(ru * 100);
        if (centi <= 0) {
            return;
        }
        add(centiRu, nowMillis, centi);
        long second = Math.floorDiv(nowMillis, 1000);
        centiBudget.lazySet((int) Math.floorMod(second, SECONDS), pack(second, Math.round(rate * 100)));
        totalCentiRu.add(centi);
        if (epk != null) {
            KeyGeneration g = generation(nowMillis);
            KeyUse use = g.byEpk.get(epk);
            if (use == null && g.byEpk.size() < MAX_KEYS) {
                use = g.byEpk.computeIfAbsent(epk, e -> new KeyUse(key, new DoubleAdder()));
            }
            if (use != null) {
                use.ru().add(ru);
            }
        }
    }

    /** Records one request refused with 429 at {@code nowMillis}. */
    public void throttled(long nowMillis) {
        add(throttled, nowMillis, 1);
        totalThrottled.increment();
    }

    /** Request units per second for the {@code seconds} seconds ending with the current one, oldest first. */
    public double[] ruPerSecond(long nowMillis, int seconds) {
        long[] raw = window(centiRu, nowMillis, seconds);
        double[] out = new double[raw.length];
        for (int i = 0; i < raw.length; i++) {
            out[i] = raw[i] / 100.0;
        }
        return out;
    }

    /** The RU/s budget each second's charges were made against (0 for a second without charges), oldest first. */
    public double[] budgetPerSecond(long nowMillis, int seconds) {
        long[] raw = window(centiBudget, nowMillis, seconds);
        double[] out = new double[raw.length];
        for (int i = 0; i < raw.length; i++) {
            out[i] = raw[i] / 100.0;
        }
        return out;
    }

    /** 429s per second for the {@code seconds} seconds ending with the current one, oldest first. */
    public long[] throttledPerSecond(long nowMillis, int seconds) {
        return window(throttled, nowMillis, seconds);
    }

    /** Request units charged since the engine started. */
    public double totalRu() {
        return totalCentiRu.sum() / 100.0;
    }

    /** Requests refused with 429 since the engine started. */
    public long totalThrottled() {
        return totalThrottled.sum();
    }

    /** The {@code n} logical partitions that consumed the most over the last one to two minutes, busiest first. */
    public List<LogicalUsage> topKeys(long nowMillis, int n) {
        KeyGeneration now = generation(nowMillis);
        KeyGeneration before = previous;
        Map<String, LogicalUsage> merged = new HashMap<>();
        for (KeyGeneration g : new KeyGeneration[] {before, now}) {
            if (g.startMillis < nowMillis - 2 * KEY_GENERATION_MILLIS) {
                continue;
            }
            g.byEpk.forEach((epk, use) -> merged.merge(epk, new LogicalUsage(epk, use.key(), use.ru().sum()),
                    (a, b) -> new LogicalUsage(epk, a.key(), a.ru() + b.ru())));
        }
        List<LogicalUsage> out = new ArrayList<>(merged.values());
        out.sort(Comparator.comparingDouble(LogicalUsage::ru).reversed().thenComparing(LogicalUsage::epk));
        return out.size() > n ? List.copyOf(out.subList(0, n)) : out;
    }

    private KeyGeneration generation(long nowMillis) {
        KeyGeneration g = current;
        if (g.covers(nowMillis)) {
            return g;
        }
        synchronized (this) {
            g = current;
            if (!g.covers(nowMillis)) {
                previous = g;
                g = new KeyGeneration(nowMillis);
                current = g;
            }
            return g;
        }
    }

    private static long pack(long second, long value) {
        return ((second & STAMP_MASK) << (64 - STAMP_BITS)) | (value & VALUE_MASK);
    }

    private static void add(AtomicLongArray slots, long nowMillis, long delta) {
        long second = Math.floorDiv(nowMillis, 1000);
        int i = (int) Math.floorMod(second, SECONDS);
        long stamp = second & STAMP_MASK;
        while (true) {
            long packed = slots.get(i);
            long next = (packed >>> (64 - STAMP_BITS)) == stamp ? packed + delta : pack(second, delta);
            if (slots.compareAndSet(i, packed, next)) {
                return;
            }
        }
    }

    private static long[] window(AtomicLongArray slots, long nowMillis, int seconds) {
        int n = Math.min(seconds, SECONDS);
        long last = Math.floorDiv(nowMillis, 1000);
        long[] out = new long[n];
        for (int k = 0; k < n; k++) {
            long second = last - (n - 1 - k);
            long packed = slots.get((int) Math.floorMod(second, SECONDS));
            out[k] = (packed >>> (64 - STAMP_BITS)) == (second & STAMP_MASK) ? packed & VALUE_MASK : 0;
        }
        return out;
    }
}
