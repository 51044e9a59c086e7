package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A partition key to try: one path, a hierarchical key of up to three paths, or a synthetic key computed into
 * {@value #SYNTHETIC} (the concatenation of fields, or one field hashed into N buckets).
 *
 * @param paths   the container's key paths
 * @param sources the sample fields the key is made of (what a caller must know to address an item)
 */
public record Candidate(String label, List<String> paths, List<String> sources, Synthetic synthetic) {
    public static final String SYNTHETIC = "partitionKey";

    /** How a synthetic key is computed; null for natural keys. */
    public sealed interface Synthetic permits Concat, Hash {
    }

    public record Concat(List<String> fields) implements Synthetic {
    }

    public record Hash(String field, int buckets) implements Synthetic {
    }

    public static Candidate path(String field) {
        return new Candidate("/" + field, List.of("/" + field), List.of(field), null);
    }

    public static Candidate hierarchical(List<String> fields) {
        return new Candidate(String.join(" + ", fields.stream().map(f -> "/" + f).toList()),
                fields.stream().map(f -> "/" + f).toList(), fields, null);
    }

    public static Candidate concat(List<String> fields) {
        return new Candidate("synthetic " + String.join("-", fields), List.of("/" + SYNTHETIC), fields,
                new Concat(fields));
    }

    public static Candidate hash(String field, int buckets) {
        return new Candidate("synthetic hash(" + field + ") % " + buckets, List.of("/" + SYNTHETIC), List.of(field),
                new Hash(field, buckets));
    }

    /** The item as stored under this candidate: with the synthetic property when there is one. */
    public ObjectNode shape(ObjectNode item) {
        if (synthetic == null) {
            return item;
        }
        ObjectNode copy = item.deepCopy();
        copy.put(SYNTHETIC, syntheticValue(item));
        return copy;
    }

    private String syntheticValue(ObjectNode item) {
        return switch (synthetic) {
            case Concat c -> String.join("-", c.fields().stream().map(f -> text(item.get(f))).toList());
            case Hash h -> {
                CRC32 crc = new CRC32();
                crc.update(text(item.get(h.field())).getBytes(StandardCharsets.UTF_8));
                yield h.field() + "-" + (crc.getValue() % h.buckets());
            }
        };
    }

    /** The key's value tuple for an item, as text (for distribution counts). */
    public String keyText(ObjectNode item) {
        ObjectNode shaped = shape(item);
        StringBuilder b = new StringBuilder();
        for (String p : paths) {
            b.append(text(shaped.get(p.substring(1)))).append('\u0001');
        }
        return b.toString();
    }

    static String text(JsonNode n) {
        return n == null ? "<none>" : n.isTextual() ? n.textValue() : n.toString();
    }

    /** True when a caller knowing these fields can build this key. */
    public boolean addressableBy(List<String> known) {
        return known.containsAll(sources);
    }
}
