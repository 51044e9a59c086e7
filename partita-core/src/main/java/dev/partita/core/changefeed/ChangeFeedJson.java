package dev.partita.core.changefeed;

import dev.partita.core.store.ChangeRecord;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.partition.PartitionKeyDefinition;
import dev.partita.core.partition.PartitionKeyValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A change-feed page as the service sends it (feeds-batch.md §1.2, §2.2, §3.2a): {@code {"_rid":..,"Documents":[..],
 * "_count":n}} with each change in one of three shapes, built from the stored bytes without re-encoding documents:
 * <ul>
 *   <li>{@link Shape#DOCUMENT}: the document itself plus {@code _lsn} (latest-version pull model, legacy processor);
 *   <li>{@link Shape#WRAPPED}: {@code {"current":doc,"metadata":{..}}} (latest-version requests that carry the
 *       change-feed wire-format version, i.e. the EPK-based change feed processor);
 *   <li>{@link Shape#ALL_VERSIONS}: as wrapped; deletes with an empty {@code current}, the deleted version as
 *       {@code previous} and its id and partition key in {@code metadata}, TTL expirations marked
 *       {@code timeToLiveExpired}.
 * </ul>
 * Operation types are lower case (the SDK rejects others); {@code crts} is the commit time in epoch seconds.
 */
public final class ChangeFeedJson {
    private ChangeFeedJson() {
    }

    public enum Shape {
        DOCUMENT, WRAPPED, ALL_VERSIONS
    }

    /** The shape for a mode, and whether the request asked for the wrapped (wire-format versioned) form. */
    public static Shape shape(ChangeFeedMode mode, boolean wireFormatVersioned) {
        if (mode == ChangeFeedMode.ALL_VERSIONS_AND_DELETES) {
            return Shape.ALL_VERSIONS;
        }
        return wireFormatVersioned ? Shape.WRAPPED : Shape.DOCUMENT;
    }

    /** The response body of a page. */
    public static byte[] page(String containerRid, List<ChangeRecord> changes, Shape shape,
            PartitionKeyDefinition pkDefinition) {
        Out out = new Out(256 + 256 * changes.size());
        out.ascii("{\"_rid\":\"").ascii(containerRid).ascii("\",\"Documents\":[");
        for (int i = 0; i < changes.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            change(out, changes.get(i), shape, pkDefinition);
        }
        out.ascii("],\"_count\":").ascii(Integer.toString(changes.size())).ascii("}");
        return out.toByteArray();
    }

    /** One change in the given shape. */
    public static byte[] change(ChangeRecord r, Shape shape, PartitionKeyDefinition pkDefinition) {
        Out out = new Out(128 + (r.newImage() == null ? 0 : r.newImage().length));
        change(out, r, shape, pkDefinition);
        return out.toByteArray();
    }

    private static void change(Out out, ChangeRecord r, Shape shape, PartitionKeyDefinition pkDefinition) {
        if (shape == Shape.DOCUMENT) {
            documentWithLsn(out, r);
            return;
        }
        out.write('{');
        if (!r.operation().isDelete()) {
            out.ascii("\"current\":");
            documentWithLsn(out, r);
            out.write(',');
        } else {
            // a delete's current is an empty object (the Java SDK's FullFidelityChangeFeedTest asserts
            // change.get("current").isEmpty(), the Python SDK's tests expect "current": {})
            out.ascii("\"current\":{},");
            if (r.previousImage() != null) {
                // the SDK documents the previous image as always present on deletes (ChangeFeedProcessorItem); the
                // previous image of a replace is an opt-in preview feature, so replaces carry only previousImageLSN
                out.ascii("\"previous\":").bytes(r.previousImage()).write(',');
            }
        }
        out.ascii("\"metadata\":{\"operationType\":\"").ascii(operationType(r.operation()))
                .ascii("\",\"lsn\":").ascii(Long.toString(r.lsn()))
                .ascii(",\"crts\":").ascii(Long.toString(r.ts()));
        if (r.previousLsn() > 0) {
            out.ascii(",\"previousImageLSN\":").ascii(Long.toString(r.previousLsn()));
        }
        if (r.operation().isDelete()) {
            out.ascii(",\"timeToLiveExpired\":").ascii(Boolean.toString(r.operation()
                    == ChangeRecord.Operation.TTL_EXPIRE));
            out.ascii(",\"id\":").bytes(Json.bytes(Json.NODES.textNode(r.id())));
            out.ascii(",\"partitionKey\":").bytes(Json.bytes(partitionKey(r, pkDefinition)));
        }
        out.ascii("}}");
    }

    private static String operationType(ChangeRecord.Operation op) {
        return switch (op) {
            case CREATE, REPLACE -> op.name().toLowerCase(Locale.ROOT);
            case DELETE, TTL_EXPIRE -> "delete";
        };
    }

    /** The stored document with {@code "_lsn":n} added before its closing brace. */
    private static void documentWithLsn(Out out, ChangeRecord r) {
        byte[] doc = r.newImage();
        int end = doc.length - 1;
        while (end > 0 && doc[end] != '}') {
            end--;
        }
        int last = end - 1;
        while (last > 0 && (doc[last] == ' ' || doc[last] == '\n' || doc[last] == '\r' || doc[last] == '\t')) {
            last--;
        }
        out.write(doc, 0, end);
        out.ascii(doc[last] == '{' ? "\"_lsn\":" : ",\"_lsn\":").ascii(Long.toString(r.lsn())).write('}');
    }

    /**
     * The deleted item's partition key as the service reports it: an object keyed by each path without its leading
     * slash (one entry per level of a hierarchical key), from the image before the delete.
     */
    private static ObjectNode partitionKey(ChangeRecord r, PartitionKeyDefinition def) {
        ObjectNode pk = Json.object();
        if (r.previousImage() == null || def.levels() == 0) {
            return pk;
        }
        PartitionKeyValue value = PartitionKeyValue.extract(def, Json.parseObject(r.previousImage(), "stored item"));
        for (int i = 0; i < value.size() && i < def.paths().size(); i++) {
            String name = def.paths().get(i).substring(1);
            switch (value.component(i)) {
                case PartitionKeyValue.Str s -> pk.put(name, s.value());
                case PartitionKeyValue.Num n -> {
                    if (n.value() == Math.rint(n.value()) && Math.abs(n.value()) < 1e15) {
                        pk.put(name, (long) n.value());
                    } else {
                        pk.put(name, n.value());
                    }
                }
                case PartitionKeyValue.Bool b -> pk.put(name, b.value());
                case PartitionKeyValue.Null x -> pk.putNull(name);
                case PartitionKeyValue.Undefined u -> {
                    // an item without the key property: nothing to report
                }
            }
        }
        return pk;
    }

    /** A byte buffer with ASCII appends. */
    private static final class Out extends ByteArrayOutputStream {
        Out(int size) {
            super(size);
        }

        Out ascii(String s) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            write(b, 0, b.length);
            return this;
        }

        Out bytes(byte[] b) {
            write(b, 0, b.length);
            return this;
        }
    }
}
