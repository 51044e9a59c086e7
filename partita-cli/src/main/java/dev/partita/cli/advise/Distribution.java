package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a candidate spreads the sample: distinct key values and the share of bytes held by the largest, projected to
 * the planned data size.
 */
record Distribution(int distinctValues, double largestShare, String largestValue, double projectedLargestGb) {

    static Distribution of(List<ObjectNode> sample, Candidate candidate, double dataSizeGb) {
        Map<String, Long> bytes = bytesByKey(sample, candidate);
        long total = bytes.values().stream().mapToLong(Long::longValue).sum();
        Map.Entry<String, Long> largest = bytes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        double share = total == 0 ? 0 : largest.getValue() / (double) total;
        return new Distribution(bytes.size(), share, largest.getKey(), share * dataSizeGb);
    }

    static double largestShare(List<ObjectNode> sample, Candidate candidate) {
        Map<String, Long> bytes = bytesByKey(sample, candidate);
        long total = bytes.values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? 0 : bytes.values().stream().mapToLong(Long::longValue).max().orElse(0) / (double) total;
    }

    private static Map<String, Long> bytesByKey(List<ObjectNode> sample, Candidate candidate) {
        Map<String, Long> bytes = new HashMap<>();
        for (ObjectNode item : sample) {
            bytes.merge(candidate.keyText(item), (long) item.toString().getBytes(StandardCharsets.UTF_8).length,
                    Long::sum);
        }
        return bytes;
    }
}
