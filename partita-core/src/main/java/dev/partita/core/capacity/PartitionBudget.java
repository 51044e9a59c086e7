package dev.partita.core.capacity;

import dev.partita.core.request.Priority;

/**
 * The request-unit budget of one physical partition, in one-second windows of the injected clock (capacity.md §2.1,
 * §2.8, §2.11). Thread-safe.
 *
 * <p>Each window starts with the partition's RU/s. A request is admitted while the window has budget left and is
 * charged afterwards with its real price, so the last admitted request may overdraw: the debt is paid from the
 * following windows (which then start with less), and a throttled client is told to come back when it is paid.
 *
 * <p>Burst capacity: an eligible partition (provisioned below 3,000 RU/s) banks what it leaves unused, up to 300 s of
 * its RU/s, and may spend the bank once its window is exhausted, at most up to 3,000 RU/s in all.
 *
 * <p>Low priority: a low-priority request is refused once less than {@link #LOW_PRIORITY_HEADROOM} of the window is
 * left (and never draws on burst), keeping that share for high-priority requests.
 */
public final class PartitionBudget {
    /**
     * The share of a window kept for high-priority requests. The service documents no figure (best effort, no
     * reservation); a fifth makes "low is throttled first" observable without starving low-priority work.
     */
    static final double LOW_PRIORITY_HEADROOM = 0.2;
    private static final long SECOND = 1000;

    private double rate;
    private double burstCap;
    private double burstRate;
    private long window = Long.MIN_VALUE;
    private double balance;
    private double bank;
    private double burstSpent;
    private double usedInWindow;
    private double lastWindowUsed;

    /** What admission decided: run now, or come back after {@code retryAfterMillis}. */
    public record Decision(boolean admitted, long retryAfterMillis) {
        static final Decision ADMIT = new Decision(true, 0);
    }

    /**
     * @param rate      RU/s of this partition
     * @param burstCap  the most burst capacity it can bank (0: not eligible)
     * @param burstRate the rate it may reach while spending burst capacity
     */
    synchronized void configure(double rate, double burstCap, double burstRate) {
        if (window != Long.MIN_VALUE && rate != this.rate) {
            // a change takes effect at once: a raise adds the difference to what the window has left; a cut only
            // caps it. What was already spent under the old rate never becomes debt under the new one (else a
            // partition cut right after heavy use would owe minutes of its new, smaller budget)
            balance = rate > this.rate ? Math.min(rate, balance + (rate - this.rate)) : Math.min(rate, balance);
        }
        this.rate = rate;
        this.burstCap = burstCap;
        this.burstRate = burstRate;
        bank = Math.min(bank, burstCap);
    }

    /** May a request of this priority run now? */
    public synchronized Decision admit(long nowMillis, Priority priority) {
        roll(nowMillis);
        double floor = priority == Priority.LOW ? rate * LOW_PRIORITY_HEADROOM : 0;
        if (balance > floor) {
            return Decision.ADMIT;
        }
        if (priority == Priority.HIGH && burstRoom() > 0) {
            return Decision.ADMIT;
        }
        return new Decision(false, retryAfter(nowMillis, floor - balance));
    }

    /**
     * Charges a request's real price to the current window (then to the burst bank, then as debt); returns the RU/s
     * it was charged against.
     */
    public synchronized double charge(long nowMillis, double ru) {
        roll(nowMillis);
        usedInWindow += ru;
        double over = ru - Math.max(0, balance);
        if (over > 0) {
            double fromBank = Math.min(over, burstRoom());
            bank -= fromBank;
            burstSpent += fromBank;
            ru -= fromBank;
        }
        balance -= ru;
        return rate;
    }

    /** RU left in the current window (negative while a debt is being paid). */
    public synchronized double remaining(long nowMillis) {
        roll(nowMillis);
        return balance;
    }

    /** Burst capacity banked. */
    public synchronized double burstBank(long nowMillis) {
        roll(nowMillis);
        return bank;
    }

    /** RU charged in the current window, and in the previous one (for metrics and autoscale's current level). */
    public synchronized double usedThisWindow(long nowMillis) {
        roll(nowMillis);
        return usedInWindow;
    }

    public synchronized double usedLastWindow(long nowMillis) {
        roll(nowMillis);
        return lastWindowUsed;
    }

    public synchronized double rate() {
        return rate;
    }

    private double burstRoom() {
        return Math.max(0, Math.min(bank, burstRate - rate - burstSpent));
    }

    /** Moves to the window of {@code nowMillis}: refills the budget (minus any debt) and banks what went unused. */
    private void roll(long nowMillis) {
        long w = Math.floorDiv(nowMillis, SECOND);
        if (window == Long.MIN_VALUE) {
            window = w;
            balance = rate;
            return;
        }
        if (w <= window) {
            return;
        }
        long elapsed = w - window;
        if (burstCap > 0) {
            // what the ending window left, plus every whole window nobody used
            double unused = Math.max(0, balance) + (double) (elapsed - 1) * rate;
            bank = Math.min(burstCap, bank + unused);
        }
        lastWindowUsed = elapsed == 1 ? usedInWindow : 0;
        balance = Math.min(rate, balance + (double) elapsed * rate);
        usedInWindow = 0;
        burstSpent = 0;
        window = w;
    }

    /** Milliseconds until the window in which {@code deficit} more RU have been refilled. */
    private long retryAfter(long nowMillis, double deficit) {
        long toNextWindow = SECOND - Math.floorMod(nowMillis, SECOND);
        long moreWindows = rate > 0 ? (long) Math.floor(Math.max(0, deficit) / rate) : 0;
        return toNextWindow + moreWindows * SECOND;
    }
}
