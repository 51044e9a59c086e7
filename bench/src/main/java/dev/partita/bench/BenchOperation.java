package dev.partita.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The operation types, named as in the SDK's own benchmark tool (azure-cosmos-benchmark {@code -operation}).
 *
 * <p>As in that tool, the Latency and Throughput variants issue the same operations (they differ in what the tool
 * reports); here both report latency percentiles and throughput, so each pair doubles as a repeatability check.
 */
enum BenchOperation {
    /** Point reads of preloaded items, random id. */
    ReadLatency(Kind.READ),
    /** Creates of new ~1 KB items. */
    WriteLatency(Kind.WRITE),
    ReadThroughput(Kind.READ),
    WriteThroughput(Kind.WRITE),
    /** The SDK tool's mix by index: i % 100 == 0 query (1%), else i % 10 == 0 create (9%), else read (90%). */
    Mixed(Kind.MIXED);

    enum Kind { READ, WRITE, MIXED }

    final Kind kind;

    BenchOperation(Kind kind) {
        this.kind = kind;
    }

    static List<BenchOperation> list(String csv) {
        List<BenchOperation> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            String name = s.trim();
            boolean found = false;
            for (BenchOperation w : values()) {
                if (w.name().equalsIgnoreCase(name)) {
                    out.add(w);
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("Unknown workload " + name + "; known: ReadLatency, WriteLatency,"
                        + " ReadThroughput, WriteThroughput, Mixed");
            }
        }
        return List.copyOf(out);
    }
}
