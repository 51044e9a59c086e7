package dev.partita.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * The items the harness writes: {@code {"id","pk","n","payload"}} padded so the JSON the client sends is
 * {@code size} bytes. Preloaded (read) items use partition keys {@code pk-0..pk-999}; items the write workloads create
 * use {@code w-0..w-999}, so a query by a preloaded key returns the same number of items however much was written.
 */
final class Documents {
    static final int PARTITION_KEYS = 1000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String payload;
    private final int size;

    Documents(int size) {
        this.size = size;
        // {"id":"item-0000000","pk":"pk-000","n":0000000,"payload":""} is about 70 bytes
        this.payload = "x".repeat(Math.max(0, size - 70));
    }

    static String readId(int i) {
        return "item-" + i;
    }

    static String readPk(int i) {
        return "pk-" + (i % PARTITION_KEYS);
    }

    static String writePk(long i) {
        return "w-" + (i % PARTITION_KEYS);
    }

    ObjectNode item(String id, String pk, long n) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("id", id);
        o.put("pk", pk);
        o.put("n", n);
        o.put("payload", payload);
        return o;
    }

    /** The document the ceiling server returns: a preloaded item as Partita stores it (with system properties). */
    byte[] storedItem() {
        ObjectNode o = item(readId(0), readPk(0), 0);
        o.put("_rid", "AAAAAYAAAAEAAAAAAAABAA==");
        o.put("_self", "dbs/AAAAAQ==/colls/AAAAAYAAAAE=/docs/AAAAAYAAAAEAAAAAAAABAA==/");
        o.put("_etag", "\"80000001-0000-0000-0000-000000000001\"");
        o.put("_attachments", "attachments/");
        o.put("_ts", 1796061499L);
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    int size() {
        return size;
    }
}
