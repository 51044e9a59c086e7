package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/** The last steps of a SELECT's rows on their way out: DISTINCT, OFFSET and LIMIT/TOP, dropping undefined rows. */
final class Emitter {
    private final CompiledQuery.Sink out;
    private final Set<Key> seen;
    private long skip;
    private long remaining;

    Emitter(CompiledQuery.Sink out, boolean distinct, long skip, long take) {
        this.out = out;
        this.seen = distinct ? new HashSet<>() : null;
        this.skip = skip;
        this.remaining = take;
    }

    /** Hands the row on unless it is dropped; false once no more rows are wanted. */
    boolean emit(JsonNode row) {
        if (row == null) {
            return true;
        }
        if (seen != null && !seen.add(Key.of(row))) {
            return true;
        }
        if (skip > 0) {
            skip--;
            return true;
        }
        remaining--;
        boolean more = out.accept(row);
        return more && remaining > 0;
    }
}
