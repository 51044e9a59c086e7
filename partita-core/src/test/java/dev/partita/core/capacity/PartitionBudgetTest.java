package dev.partita.core.capacity;

import dev.partita.core.request.Priority;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One partition's budget in one-second windows; time is a plain millisecond counter (no clock, no sleeping). */
class PartitionBudgetTest {
    private static final long T0 = 1_000_000_000L; // the start of a window

    static PartitionBudget budget(double rate) {
        PartitionBudget b = new PartitionBudget();
        b.configure(rate, 0, rate);
        return b;
    }

    @Test
    void aWindowAdmitsUntilItsBudgetIsSpentThenSendsTheClientToTheNextWindow() {
        PartitionBudget b = budget(100);
        int admitted = 0;
        long now = T0 + 250;
        while (b.admit(now, Priority.HIGH).admitted()) {
            b.charge(now, 10);
            admitted++;
        }
        assertThat(admitted).isEqualTo(10);
        PartitionBudget.Decision d = b.admit(now, Priority.HIGH);
        assertThat(d.retryAfterMillis()).isEqualTo(750);
        assertThat(b.admit(now + d.retryAfterMillis(), Priority.HIGH).admitted()).isTrue();
    }

    @Test
    void theLastAdmittedRequestMayOverdrawAndTheDebtIsPaidFromTheNextWindows() {
        PartitionBudget b = budget(100);
        assertThat(b.admit(T0, Priority.HIGH).admitted()).isTrue();
        b.charge(T0, 350); // a query that turned out dear: 250 RU of debt
        PartitionBudget.Decision d = b.admit(T0 + 100, Priority.HIGH);
        assertThat(d.admitted()).isFalse();
        // 250 of debt at 100 RU/s: windows +1 and +2 pay 200, window +3 ends it with 50 to spare
        assertThat(d.retryAfterMillis()).isEqualTo(900 + 2000);
        assertThat(b.admit(T0 + 2999, Priority.HIGH).admitted()).isFalse();
        assertThat(b.admit(T0 + 3000, Priority.HIGH).admitted()).isTrue();
        assertThat(b.remaining(T0 + 3000)).isEqualTo(50);
    }

    @Test
    void unusedBudgetDoesNotAccumulateWithoutBurstCapacity() {
        PartitionBudget b = budget(100);
        b.admit(T0, Priority.HIGH);
        assertThat(b.remaining(T0 + 60_000)).isEqualTo(100);
    }

    @Test
    void lowPriorityIsRefusedFirstOnceThePartitionNearsItsBudget() {
        PartitionBudget b = budget(100);
        b.charge(T0, 85); // 15 left: below the fifth kept for high priority
        PartitionBudget.Decision low = b.admit(T0 + 10, Priority.LOW);
        assertThat(low.admitted()).isFalse();
        assertThat(low.retryAfterMillis()).isEqualTo(990);
        assertThat(b.admit(T0 + 10, Priority.HIGH).admitted()).isTrue();
        b.charge(T0 + 10, 15);
        assertThat(b.admit(T0 + 20, Priority.HIGH).admitted()).isFalse();
        assertThat(b.admit(T0 + 1000, Priority.LOW).admitted()).isTrue();
    }

    @Test
    void burstCapacityBanksIdleSecondsAndSpendsThemAtUpToItsRateThenStops() {
        PartitionBudget b = new PartitionBudget();
        b.configure(100, 100 * 300, 3000); // 100 RU/s: eligible, banks up to 30,000 RU, spends up to 3,000 RU/s
        b.admit(T0, Priority.HIGH);
        long later = T0 + 400_000; // idle for 400 s: the bank is full
        assertThat(b.burstBank(later)).isEqualTo(30_000);
        // the spike: within one second, 3,000 RU get through (100 provisioned + 2,900 from the bank)
        double used = 0;
        while (b.admit(later, Priority.HIGH).admitted()) {
            b.charge(later, 10);
            used += 10;
        }
        assertThat(used).isEqualTo(3000);
        assertThat(b.burstBank(later)).isEqualTo(30_000 - 2_900);
        // keep spiking every second until the bank is empty: then only the provisioned 100 RU/s get through
        long t = later;
        for (int s = 1; s <= 12; s++) {
            t = later + s * 1000L;
            while (b.admit(t, Priority.HIGH).admitted()) {
                b.charge(t, 10);
            }
        }
        assertThat(b.burstBank(t)).isZero();
        long next = t + 1000;
        used = 0;
        while (b.admit(next, Priority.HIGH).admitted()) {
            b.charge(next, 10);
            used += 10;
        }
        assertThat(used).isEqualTo(100);
    }

    @Test
    void lowPriorityDoesNotSpendBurstCapacity() {
        PartitionBudget b = new PartitionBudget();
        b.configure(100, 30_000, 3000);
        b.admit(T0, Priority.HIGH);
        long later = T0 + 400_000;
        b.charge(later, 100);
        assertThat(b.admit(later, Priority.LOW).admitted()).isFalse();
        assertThat(b.admit(later, Priority.HIGH).admitted()).isTrue();
    }

    @Test
    void aThroughputChangeTakesEffectInTheCurrentWindow() {
        PartitionBudget b = budget(100);
        b.charge(T0, 100);
        assertThat(b.admit(T0 + 1, Priority.HIGH).admitted()).isFalse();
        b.configure(400, 0, 400);
        assertThat(b.remaining(T0 + 2)).isEqualTo(300);
        assertThat(b.admit(T0 + 2, Priority.HIGH).admitted()).isTrue();
    }

    @Test
    void aCutAfterHeavyUseCapsTheBudgetWithoutMakingDebt() {
        PartitionBudget b = budget(6_000);
        b.charge(T0, 5_900); // a busy second at the old rate
        b.configure(60, 0, 60);
        assertThat(b.remaining(T0 + 1)).isEqualTo(60);
        assertThat(b.admit(T0 + 1, Priority.HIGH).admitted()).isTrue();
        assertThat(b.remaining(T0 + 1_000)).as("the next window starts full").isEqualTo(60);
        // a real overdraw stays owed
        PartitionBudget c = budget(100);
        c.charge(T0, 150);
        c.configure(50, 0, 50);
        assertThat(c.remaining(T0 + 1)).isEqualTo(-50);
    }
}
