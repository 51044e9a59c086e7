package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.limits.Limits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The advisor's answer: every candidate with its distribution, how each operation reaches the data, and what the
 * replay measured; ranked, with the reasons, and for the winner what gets worse compared with the other candidates.
 */
record Advice(Workload workload, int sampleSize, int partitions, List<Assessment> ranked) {

    /** One candidate's figures. */
    record Assessment(Candidate candidate, Distribution distribution, boolean fitsLogicalLimit,
            Map<String, AccessPath> access, Map<String, Replay.Measured> measured, double ruPerSecond,
            double throttledShare, double accessScore, List<String> reasons) {

        /** One value holding this much of the data makes a hot partition however many partitions there are. */
        boolean skewed() {
            return distribution.largestShare() > SKEWED_SHARE;
        }
    }

    static final double SKEWED_SHARE = 0.25;

    static Advice of(List<ObjectNode> sample, Workload workload, Limits limits, List<Candidate> candidates) {
        int partitions = Replay.partitionsFor(workload, limits);
        double limitGb = limits.maxLogicalPartitionBytes() / (1024.0 * 1024 * 1024);
        List<Assessment> out = new ArrayList<>();
        try (Replay replay = new Replay(limits)) {
            ObjectNode example = sample.get(0);
            for (Candidate c : candidates) {
                Distribution d = Distribution.of(sample, c, workload.dataSizeGb());
                Map<String, AccessPath> access = new LinkedHashMap<>();
                workload.operations().forEach(op -> access.put(op.name(), Classifier.classify(op, c, example)));
                Map<String, Replay.Measured> measured = replay.run(c, sample, workload, partitions);
                double ru = 0;
                long count = 0;
                long throttled = 0;
                for (Workload.Operation op : workload.operations()) {
                    Replay.Measured m = measured.get(op.name());
                    ru += op.rate() * m.averageCharge();
                    count += m.count();
                    throttled += m.throttled();
                }
                double share = count == 0 ? 0 : throttled / (double) count;
                double score = 0;
                for (Workload.Operation op : workload.operations()) {
                    score += op.rate() * access.get(op.name()).ordinal();
                }
                score /= workload.totalRate();
                boolean fits = d.projectedLargestGb() <= limitGb;
                out.add(new Assessment(c, d, fits, access, measured, ru, share, score,
                        reasons(c, d, fits, limitGb, workload.dataSizeGb(), access, share)));
            }
        }
        // a key that breaks the 20 GB limit or makes a hot partition is out whatever it costs today; then fewer
        // throttled requests, then operations that reach fewer partitions (a fan-out's cost grows with the
        // partitions, which grow with the data), then the request units the replay measured
        out.sort(Comparator.comparing((Assessment a) -> !a.fitsLogicalLimit())
                .thenComparing(Assessment::skewed)
                .thenComparingDouble(a -> Math.round(a.throttledShare() * 100))
                .thenComparingDouble(a -> Math.round(a.accessScore() * 100))
                .thenComparingDouble(Assessment::ruPerSecond)
                .thenComparing(a -> a.candidate().paths().size()));
        return new Advice(workload, sample.size(), partitions, out);
    }

    private static List<String> reasons(Candidate c, Distribution d, boolean fits, double limitGb, double plannedGb,
            Map<String, AccessPath> access, double throttledShare) {
        List<String> r = new ArrayList<>();
        r.add(String.format(java.util.Locale.ROOT, "%d key values; the largest holds %.1f%% of the data, %.2f GB "
                + "of %.2f GB planned%s", d.distinctValues(), d.largestShare() * 100, d.projectedLargestGb(),
                plannedGb,
                fits ? "" : String.format(java.util.Locale.ROOT, " — over the %.0f GB logical partition limit",
                        limitGb)));
        access.forEach((op, a) -> {
            if (a != AccessPath.POINT && a != AccessPath.SINGLE_PARTITION) {
                r.add("\"" + op + "\" is " + a.label);
            }
        });
        if (d.largestShare() > SKEWED_SHARE) {
            r.add(String.format(java.util.Locale.ROOT, "skewed: one value holds %.0f%% of the data, a hot partition",
                    d.largestShare() * 100));
        }
        if (throttledShare > 0) {
            r.add(String.format(java.util.Locale.ROOT, "%.1f%% of requests throttled (429) in the replay",
                    throttledShare * 100));
        }
        return r;
    }

    Assessment best() {
        return ranked.get(0);
    }

    /**
     * Operations that reach the data worse under the winner than under another candidate — also one that is out
     * (often the key a team has today), saying why it is out.
     */
    List<String> whatGetsWorse() {
        Assessment best = best();
        List<String> out = new ArrayList<>();
        for (Workload.Operation op : workload.operations()) {
            AccessPath mine = best.access().get(op.name());
            ranked.stream()
                    .filter(a -> a.access().get(op.name()).ordinal() < mine.ordinal())
                    .findFirst()
                    .ifPresent(a -> out.add(String.format(java.util.Locale.ROOT,
                            "\"%s\" is %s (%.2f RU) where %s would make it %s (%.2f RU)%s", op.name(), mine.label,
                            best.measured().get(op.name()).averageCharge(), a.candidate().label(),
                            a.access().get(op.name()).label, a.measured().get(op.name()).averageCharge(),
                            !a.fitsLogicalLimit() ? ", but that key breaks the logical partition limit"
                                    : a.skewed() ? ", but that key makes a hot partition" : "")));
        }
        return out;
    }
}
