package dev.partita.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The results as markdown: one row per (target, workload, concurrency) — the median round by throughput when a
 * workload ran several rounds — then the shares of the ceilings round by round, the targets, and every
 * round.
 */
final class ResultTable {
    private ResultTable() {
    }

    static String render(List<RunResult> results, HarnessOptions o, String startedAt, String sdkVersion,
            String endpoint) {
        StringBuilder b = new StringBuilder();
        int cores = Runtime.getRuntime().availableProcessors();
        b.append("Run ").append(startedAt).append(" — ").append(cores)
                .append(" cores shared by client and server(s), Java ").append(System.getProperty("java.version"))
                .append(", azure-cosmos ").append(sdkVersion).append(", gateway mode over HTTP on loopback; ")
                .append(o.inProcess() ? "Partita in-process (" + o.store() + " store)" : "Partita at " + endpoint)
                .append("; client ").append(o.client()).append(" (").append(o.client().equals("async")
                        ? "CosmosAsyncContainer + flatMap" : "CosmosContainer on virtual threads").append("); ")
                .append(o.items()).append(" items of ").append(o.docSize()).append(" B preloaded; ").append(o.ops())
                .append(" ops per run after ").append(o.warmup()).append(" warm-up ops (and ").append(o.warmupSeconds())
                .append(" s of JIT warm-up before the first run); ").append(o.rounds())
                .append(" rounds of each workload compared with a ceiling (median shown); Mixed = 90% read, 9% create,"
                        + " 1% query ")
                .append(o.mixedQuery().equals("pk") ? "by partition key (~10 items)"
                        : "SELECT TOP 100 * FROM c ORDER BY c._ts in pages of 10")
                .append(".\n\n");
        b.append("| target | workload | conc. | ops | errors | ops/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms"
                + " | CPU µs/op client | CPU µs/op server | CPU µs/op GC+JIT | cores: harness JVM / machine |\n");
        b.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (RunResult r : medians(results)) {
            row(b, r, o);
        }
        b.append("\nCPU columns: CPU time per operation by role (client = SDK threads + harness; server = Partita's"
                + " event loops + virtual-thread carriers when in-process, /proc of --server-pid when external, the"
                + " ceiling's event loops (and, for ceiling-vt, virtual-thread carriers) for the ceilings; GC+JIT ="
                + " process CPU not on Java threads, shared by client and server). cores = CPU time / wall time of the"
                + " harness JVM (client, and server when in-process) and of the whole machine (/proc/stat), out of "
                + cores + "; a run with more than " + LoadHarness.NOISE_CORES + " cores busy outside was measured"
                + " again (up to " + LoadHarness.MAX_ATTEMPTS + " attempts, the quietest kept)."
                + (o.client().equals("sync") ? " With --client sync the client's virtual threads share carriers with"
                        + " Partita's, so their CPU is counted under server." : "") + "\n");

        b.append("\n### Against the ceiling\n\n");
        b.append("ceiling = the same client against a server that answers every request on the event loop with a fixed"
                + " document; ceiling-vt = that server handing each request to a virtual thread and writing the answer"
                + " from there, as Partita's gateway does. Shares are per round (each Partita run is followed by its"
                + " ceiling runs), median in bold.\n\n");
        b.append("| workload | conc. | Partita ops/s (median) | ceiling ops/s (median) | Partita / ceiling per round |"
                + " **median** | ceiling-vt / ceiling per round | Partita p99 ms | ceiling p99 ms |\n"
                + "|---|--:|--:|--:|--|--:|--|--:|--:|\n");
        for (BenchOperation w : o.workloads()) {
            for (int c : o.concurrency()) {
                List<Double> shares = shares(results, o.targetName(), "ceiling", w, c);
                if (shares.isEmpty()) {
                    continue;
                }
                List<Double> vt = shares(results, "ceiling-vt", "ceiling", w, c);
                RunResult p = median(results, o.targetName(), w, c).orElseThrow();
                RunResult ce = median(results, "ceiling", w, c).orElseThrow();
                double m = medianOf(shares);
                b.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %s | **%.2f**%s | %s | %.2f | %.2f |%n",
                        w, c, p.opsPerSecond(), ce.opsPerSecond(), list(shares), m,
                        w.kind == BenchOperation.Kind.READ ? (m >= 0.8 ? " met" : " missed") : "",
                        vt.isEmpty() ? "–" : list(vt) + " (median " + String.format(Locale.ROOT, "%.2f",
                                medianOf(vt)) + ")", p.ms(99), ce.ms(99)));
            }
        }
        b.append("\nTarget: point-read throughput ≥ 0.80 of the ceiling (ReadThroughput rows).\n");

        b.append("\n### p99 point read at concurrency 20 (target < 2 ms)\n\n");
        for (BenchOperation w : List.of(BenchOperation.ReadLatency, BenchOperation.ReadThroughput)) {
            median(results, o.targetName(), w, 20).ifPresent(r -> b.append(String.format(Locale.ROOT,
                    "- %s: Partita p99 %.2f ms (p50 %.2f ms) — %s", w, r.ms(99), r.ms(50),
                    r.ms(99) < 2.0 ? "met" : "missed")));
            median(results, "ceiling", w, 20).ifPresent(r -> b.append(String.format(Locale.ROOT,
                    "; the ceiling: p99 %.2f ms (p50 %.2f ms)", r.ms(99), r.ms(50))));
            if (median(results, o.targetName(), w, 20).isPresent()) {
                b.append("\n");
            }
        }

        if (results.stream().anyMatch(r -> r.round() > 1 || r.attempts() > 1)) {
            b.append("\n### Every measured run\n\n| target | workload | conc. | round | attempt | ops/s | p50 ms"
                    + " | p99 ms"
                    + " | cores outside harness |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
            for (RunResult r : results) {
                b.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %.0f | %.2f | %.2f | %.2f |%n",
                        r.target(), r.workload(), r.concurrency(), r.round(), r.attempts(), r.opsPerSecond(),
                        r.ms(50), r.ms(99), r.outsideCores()));
            }
        }
        return b.toString();
    }

    private static void row(StringBuilder b, RunResult r, HarnessOptions o) {
        // the in-process ceilings' rows (an external server given as --endpoint is named by --target-name)
        boolean ceiling = r.target().startsWith("ceiling") && !r.target().equals(o.targetName());
        double server = ceiling ? r.cpuMicrosPerOp("ceiling") + r.cpuMicrosPerOp("server-vthreads")
                : o.inProcess() ? r.cpuMicrosPerOp("server-io") + r.cpuMicrosPerOp("server-vthreads")
                : r.cpuMicrosPerOp("server-process");
        double client = r.cpuMicrosPerOp("sdk") + r.cpuMicrosPerOp("harness");
        b.append(String.format(Locale.ROOT,
                "| %s | %s | %d | %d | %s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %s | %.0f"
                        + " | %.2f / %.2f |%n",
                r.target(), r.workload(), r.concurrency(), r.completed() + r.errors(),
                r.errors() == 0 ? "0" : r.errors() + " " + r.errorsByCode(), r.opsPerSecond(), r.ms(50), r.ms(90),
                r.ms(99), r.ms(99.9), r.maxMs(), client,
                Double.isNaN(server) ? "n/a" : String.format(Locale.ROOT, "%.0f", server),
                r.cpuMicrosPerOp("jvm-other"), (double) r.cpu().processNs() / r.cpu().wallNs(), r.cpu().coresBusy()));
    }

    /** One result per (target, workload, concurrency) in first-seen order: the median round by throughput. */
    static List<RunResult> medians(List<RunResult> results) {
        Map<String, List<RunResult>> groups = new LinkedHashMap<>();
        for (RunResult r : results) {
            groups.computeIfAbsent(r.target() + "|" + r.workload() + "|" + r.concurrency(), k -> new ArrayList<>())
                    .add(r);
        }
        List<RunResult> out = new ArrayList<>();
        for (List<RunResult> g : groups.values()) {
            List<RunResult> sorted = new ArrayList<>(g);
            sorted.sort(Comparator.comparingDouble(RunResult::opsPerSecond));
            out.add(sorted.get((sorted.size() - 1) / 2));
        }
        return out;
    }

    private static Optional<RunResult> median(List<RunResult> results, String target, BenchOperation w, int c) {
        return medians(results).stream()
                .filter(r -> r.target().equals(target) && r.workload() == w && r.concurrency() == c)
                .findFirst();
    }

    /** a / b per round, for rounds where both ran. */
    private static List<Double> shares(List<RunResult> results, String a, String b, BenchOperation w, int c) {
        List<Double> out = new ArrayList<>();
        for (RunResult x : results) {
            if (x.target().equals(a) && x.workload() == w && x.concurrency() == c) {
                results.stream()
                        .filter(y -> y.target().equals(b) && y.workload() == w && y.concurrency() == c
                                && y.round() == x.round())
                        .findFirst()
                        .ifPresent(y -> out.add(x.opsPerSecond() / y.opsPerSecond()));
            }
        }
        return out;
    }

    private static double medianOf(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String list(List<Double> xs) {
        StringBuilder b = new StringBuilder();
        for (double x : xs) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(String.format(Locale.ROOT, "%.2f", x));
        }
        return b.toString();
    }
}
