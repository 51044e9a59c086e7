package dev.partita.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;

/** Per-second request units and 429s, totals and the busiest logical partitions of one physical partition. */
class PartitionMeterTest {
    static final long T0 = 1_800_000_000_000L;
    final PartitionMeter meter = new PartitionMeter();

    @Test
    void chargesAddUpPerSecondOfTheClockOldestFirst() {
        meter.charged(T0, 5.24, 400, null, null);
        meter.charged(T0 + 999, 1.0, 400, null, null);
        meter.charged(T0 + 2_000, 3.5, 400, null, null);
        assertThat(meter.ruPerSecond(T0 + 2_500, 4)).containsExactly(0, 6.24, 0, 3.5);
        assertThat(meter.budgetPerSecond(T0 + 2_500, 4)).containsExactly(0, 400, 0, 400);
        assertThat(meter.totalRu()).isEqualTo(9.74);
    }

    @Test
    void aSlotFromAnEarlierLapOfTheRingStartsAfresh() {
        meter.charged(T0, 7, 400, null, null);
        meter.throttled(T0);
        long lapLater = T0 + PartitionMeter.SECONDS * 1000L;
        meter.charged(lapLater, 2, 400, null, null);
        assertThat(meter.ruPerSecond(lapLater, 1)).containsExactly(2.0);
        assertThat(meter.throttledPerSecond(lapLater, 1)).containsExactly(0L);
        // the old second is outside the window now, so it reads as nothing, not as the new value
        assertThat(meter.ruPerSecond(lapLater + 1000, PartitionMeter.SECONDS)[0]).isZero();
        assertThat(meter.totalRu()).isEqualTo(9.0);
        assertThat(meter.totalThrottled()).isEqualTo(1);
    }

    @Test
    void throttledRequestsAreCountedPerSecond() {
        meter.throttled(T0);
        meter.throttled(T0 + 10);
        meter.throttled(T0 + 1_000);
        assertThat(meter.throttledPerSecond(T0 + 1_000, 3)).containsExactly(0L, 2L, 1L);
        assertThat(meter.totalThrottled()).isEqualTo(3);
    }

    @Test
    void theBusiestLogicalPartitionsComeFirstAndOldGenerationsAreForgotten() {
        PartitionKeyValue hot = PartitionKeyValue.fromHeader("[\"hot\"]");
        PartitionKeyValue cold = PartitionKeyValue.fromHeader("[\"cold\"]");
        for (int i = 0; i < 10; i++) {
            meter.charged(T0 + i, 5, 400, "EPK-HOT", hot);
        }
        meter.charged(T0, 1, 400, "EPK-COLD", cold);
        meter.charged(T0 + PartitionMeter.KEY_GENERATION_MILLIS + 1, 5, 400, "EPK-HOT", hot);
        var top = meter.topKeys(T0 + PartitionMeter.KEY_GENERATION_MILLIS + 2, 5);
        assertThat(top).extracting(PartitionMeter.LogicalUsage::epk).containsExactly("EPK-HOT", "EPK-COLD");
        assertThat(top.get(0).ru()).isEqualTo(55.0);
        assertThat(top.get(0).key()).isEqualTo(hot);
        assertThat(meter.topKeys(T0 + 10 * PartitionMeter.KEY_GENERATION_MILLIS, 5)).isEmpty();
    }

    @Test
    void aFullGenerationStillCountsNewKeysInThePartition() {
        for (int i = 0; i < PartitionMeter.MAX_KEYS + 10; i++) {
            meter.charged(T0, 1, 400, "EPK" + i, null);
        }
        assertThat(meter.topKeys(T0, 1000)).hasSize(PartitionMeter.MAX_KEYS);
        assertThat(meter.totalRu()).isEqualTo(PartitionMeter.MAX_KEYS + 10.0);
    }
}
