package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.util.Locale;

/** The advice as a text table, as JSON, or as a self-contained HTML page with charts. */
final class AdviceReport {
    private AdviceReport() {
    }

    static String text(Advice advice) {
        StringBuilder b = new StringBuilder();
        Workload w = advice.workload();
        b.append(String.format(Locale.ROOT, "Partition key advice: %d sample items, %.1f GB planned, %,d RU/s, "
                + "%d physical partition(s); replayed %d s of the workload per candidate%n%n", advice.sampleSize(),
                w.dataSizeGb(), w.throughput(), advice.partitions(), w.durationSeconds()));
        b.append(String.format(Locale.ROOT, "%-4s %-40s %8s %9s %10s %9s %s%n", "rank", "key", "values",
                "largest", "RU/s need", "429s", "operations"));
        int rank = 1;
        for (Advice.Assessment a : advice.ranked()) {
            StringBuilder ops = new StringBuilder();
            a.access().forEach((op, access) -> ops.append(op).append(": ").append(access.label)
                    .append(String.format(Locale.ROOT, " %.2f RU; ", a.measured().get(op).averageCharge())));
            b.append(String.format(Locale.ROOT, "%-4s %-40s %8d %8.1f%% %10.0f %8.1f%% %s%n",
                    a.fitsLogicalLimit() ? String.valueOf(rank++) : "-", a.candidate().label(),
                    a.distribution().distinctValues(), a.distribution().largestShare() * 100, a.ruPerSecond(),
                    a.throttledShare() * 100, ops));
        }
        Advice.Assessment best = advice.best();
        b.append(String.format("%nRecommended: %s%n", best.candidate().label()));
        best.reasons().forEach(r -> b.append("  - ").append(r).append('\n'));
        var worse = advice.whatGetsWorse();
        if (!worse.isEmpty()) {
            b.append("What gets worse with it:\n");
            worse.forEach(r -> b.append("  - ").append(r).append('\n'));
        }
        return b.toString();
    }

    static ObjectNode json(Advice advice) {
        ObjectNode root = Json.object();
        root.put("sampleSize", advice.sampleSize()).put("partitions", advice.partitions())
                .put("recommended", advice.best().candidate().label());
        ArrayNode ranked = root.putArray("candidates");
        for (Advice.Assessment a : advice.ranked()) {
            ObjectNode c = ranked.addObject();
            c.put("key", a.candidate().label());
            a.candidate().paths().forEach(c.putArray("paths")::add);
            c.put("distinctValues", a.distribution().distinctValues())
                    .put("largestShare", a.distribution().largestShare())
                    .put("projectedLargestGb", a.distribution().projectedLargestGb())
                    .put("fitsLogicalPartitionLimit", a.fitsLogicalLimit())
                    .put("ruPerSecond", a.ruPerSecond())
                    .put("throttledShare", a.throttledShare());
            ObjectNode ops = c.putObject("operations");
            a.access().forEach((op, access) -> ops.putObject(op).put("access", access.label)
                    .put("averageCharge", a.measured().get(op).averageCharge())
                    .put("throttled", a.measured().get(op).throttled()));
            a.reasons().forEach(c.putArray("reasons")::add);
        }
        advice.whatGetsWorse().forEach(root.putArray("whatGetsWorse")::add);
        return root;
    }

    static String html(Advice advice) {
        StringBuilder rows = new StringBuilder();
        double maxRu = advice.ranked().stream().mapToDouble(Advice.Assessment::ruPerSecond).max().orElse(1);
        for (Advice.Assessment a : advice.ranked()) {
            double share = a.distribution().largestShare();
            rows.append("<tr><td>").append(escape(a.candidate().label())).append("</td><td>")
                    .append(a.distribution().distinctValues()).append("</td><td>")
                    .append(bar(share, 1.0, a.fitsLogicalLimit() ? "#4a7" : "#c44"))
                    .append(String.format(Locale.ROOT, " %.1f%%", share * 100)).append("</td><td>")
                    .append(bar(a.ruPerSecond(), Math.max(maxRu, 1), "#47a"))
                    .append(String.format(Locale.ROOT, " %.0f", a.ruPerSecond())).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f%%", a.throttledShare() * 100)).append("</td><td>")
                    .append(escape(String.join("; ", a.reasons()))).append("</td></tr>\n");
        }
        StringBuilder worse = new StringBuilder();
        advice.whatGetsWorse().forEach(w -> worse.append("<li>").append(escape(w)).append("</li>"));
        return "<!doctype html><html><head><meta charset=\"utf-8\"><title>Partition key advice</title><style>"
                + "body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
                + "td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}"
                + "svg{vertical-align:middle}</style></head><body>"
                + "<h1>Partition key advice</h1><p>Recommended: <b>" + escape(advice.best().candidate().label())
                + "</b></p>" + (worse.isEmpty() ? "" : "<p>What gets worse with it:</p><ul>" + worse + "</ul>")
                + "<table><tr><th>key</th><th>values</th><th>largest logical partition</th>"
                + "<th>RU/s the workload needs</th><th>429s</th><th>why</th></tr>\n" + rows
                + "</table></body></html>\n";
    }

    private static String bar(double value, double max, String colour) {
        int width = (int) Math.round(120 * Math.min(1, value / max));
        return "<svg width=\"120\" height=\"10\"><rect width=\"" + width + "\" height=\"10\" fill=\"" + colour
                + "\"/></svg>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
