package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code partita advise}: ranks partition-key candidates for a sample of items and a workload by distribution,
 * by how each operation reaches the data, and by the charges and throttling measured replaying the workload on an
 * in-process Partita with each key.
 */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = "Recommend a partition key: replay a workload against every candidate key.")
public final class AdviseCommand implements Callable<Integer> {
    public enum Format { TEXT, JSON, HTML }

    @Option(names = "--sample", required = true, description = "Sample items, JSON Lines.")
    Path sample;

    @Option(names = "--workload", required = true, description = "Workload file (JSON): throughput, data size, "
            + "operations with rates.")
    Path workload;

    @Option(names = "--candidates", split = ",", description = "Only these keys (e.g. /make,/tenantId+/userId);"
            + " default: found from the sample.")
    List<String> only;

    @Option(names = "--format", description = "text, json or html (default: ${DEFAULT-VALUE}).",
            converter = FormatConverter.class)
    Format format = Format.TEXT;

    @Option(names = "--out", description = "Write the report here instead of standard output.")
    Path out;

    PrintStream stdout = System.out;

    @Override
    public Integer call() throws IOException {
        List<ObjectNode> items = new ArrayList<>();
        for (String line : Files.readAllLines(sample, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                items.add(Json.parseObject(line.getBytes(StandardCharsets.UTF_8), "sample line"));
            }
        }
        if (items.isEmpty()) {
            throw new IllegalArgumentException("the sample is empty");
        }
        Workload w = Workload.read(workload);
        List<Candidate> candidates = only == null ? Candidates.of(items, w.fields()) : only.stream().map(AdviseCommand::parse)
                .toList();
        Advice advice = Advice.of(items, w, Limits.DEFAULTS, candidates);
        String report = switch (format) {
            case TEXT -> AdviceReport.text(advice);
            case JSON -> Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(AdviceReport.json(advice));
            case HTML -> AdviceReport.html(advice);
        };
        if (out != null) {
            Files.writeString(out, report, StandardCharsets.UTF_8);
            stdout.println("Recommended: " + advice.best().candidate().label() + " (report: " + out + ")");
        } else {
            stdout.print(report);
        }
        return 0;
    }

    static Candidate parse(String spec) {
        List<String> fields = java.util.Arrays.stream(spec.split("\\+")).map(s -> s.trim().replaceFirst("^/", ""))
                .toList();
        return fields.size() == 1 ? Candidate.path(fields.get(0)) : Candidate.hierarchical(fields);
    }

    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            return Format.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
        }
    }
}
