package dev.partita.cli.tools;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;

/**
 * Progress of a long copy: on a terminal one self-rewriting line (bar, items, RU/s, ETA), otherwise a plain log line
 * every few seconds, so redirected output stays readable.
 */
public final class Progress {
    private static final int BAR = 30;
    private static final long TERMINAL_EVERY_MS = 200;
    private static final long LOG_EVERY_MS = 5_000;

    private final PrintStream out;
    private final boolean terminal;
    private final Clock clock;
    private final String what;
    private final long total;
    private final long started;
    private long shownAt;
    private long items;
    private double charge;

    /** @param total the expected count, or -1 when unknown (no bar, no ETA) */
    public Progress(PrintStream out, boolean terminal, Clock clock, String what, long total) {
        this.out = out;
        this.terminal = terminal;
        this.clock = clock;
        this.what = what;
        this.total = total;
        this.started = clock.millis();
        this.shownAt = started;
    }

    public synchronized void add(long count, double requestCharge) {
        items += count;
        charge += requestCharge;
        long now = clock.millis();
        if (now - shownAt >= (terminal ? TERMINAL_EVERY_MS : LOG_EVERY_MS)) {
            shownAt = now;
            show(now, false);
        }
    }

    public synchronized long items() {
        return items;
    }

    public synchronized double charge() {
        return charge;
    }

    /** The final line. */
    public synchronized void done() {
        show(clock.millis(), true);
        if (terminal) {
            out.println();
        }
    }

    private void show(long now, boolean last) {
        double seconds = Math.max(0.001, (now - started) / 1000.0);
        String rate = String.format(Locale.ROOT, "%,d %s  %,.0f RU (%,.0f RU/s)", items, what, charge,
                charge / seconds);
        String line;
        if (total > 0) {
            double done = Math.min(1.0, items / (double) total);
            long eta = items == 0 ? -1 : Math.round(seconds * (total - items) / items);
            String bar = "#".repeat((int) (done * BAR)) + ".".repeat(BAR - (int) (done * BAR));
            line = String.format(Locale.ROOT, "[%s] %3.0f%%  %s / %,d  %s", bar, done * 100, rate, total,
                    last ? String.format(Locale.ROOT, "in %.1f s", seconds) : "ETA " + duration(eta));
        } else {
            line = rate + (last ? String.format(Locale.ROOT, " in %.1f s", seconds) : "");
        }
        out.print(terminal ? "\r" + line : line + System.lineSeparator());
        out.flush();
    }

    private static String duration(long seconds) {
        return seconds < 0 ? "?" : String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
