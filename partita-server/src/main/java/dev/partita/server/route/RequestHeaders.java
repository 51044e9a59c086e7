package dev.partita.server.route;

import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.AccessScope;
import dev.partita.core.request.Conditions;
import dev.partita.core.request.Consistency;
import dev.partita.core.request.Priority;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;

/**
 * Decodes a request's headers into the engine's {@link RequestOptions}: {@code x-ms-documentdb-partitionkey},
 * {@code If-Match}/{@code If-None-Match}, {@code x-ms-cosmos-priority-level}, {@code x-ms-consistency-level},
 * {@code x-ms-session-token}, the scope ({@code x-ms-documentdb-partitionkeyrangeid}, {@code x-ms-start-epk},
 * {@code x-ms-end-epk}), {@code x-ms-continuation} and {@code x-ms-max-item-count}; the caller's reach comes from
 * authentication.
 */
final class RequestHeaders {
    private RequestHeaders() {
    }

    static RequestOptions options(Exchange ex, AccessScope access) {
        PartitionKeyValue pk = partitionKey(ex);
        Scope scope = pk != null ? Scope.partitionKey(pk)
                : Scope.epkRange(rangeId(ex), ex.header(Hdr.START_EPK), ex.header(Hdr.END_EPK));
        // a point request may name its range too: the engine answers 410/1002 when it is gone
        if (pk != null && rangeId(ex) != null) {
            scope = new Scope(rangeId(ex), null, null, pk);
        }
        return new RequestOptions(pk, conditions(ex), Priority.fromHeader(ex.header(Hdr.PRIORITY_LEVEL)),
                Consistency.fromHeader(ex.header(Hdr.CONSISTENCY_LEVEL)), ex.header(Hdr.SESSION_TOKEN), scope,
                ex.header(Hdr.CONTINUATION), ex.intHeader(Hdr.MAX_ITEM_COUNT, -1), access);
    }

    static PartitionKeyValue partitionKey(Exchange ex) {
        String h = ex.header(Hdr.PARTITION_KEY);
        return h == null || h.isBlank() ? null : PartitionKeyValue.fromHeader(h);
    }

    /** The partition key range id the request names; the SDK may send {@code <collRid>,<rangeId>}. */
    private static String rangeId(Exchange ex) {
        String id = ex.header(Hdr.PARTITION_KEY_RANGE_ID);
        if (id == null || id.isBlank()) {
            return null;
        }
        return id.substring(id.lastIndexOf(',') + 1).trim();
    }

    private static Conditions conditions(Exchange ex) {
        String ifMatch = ex.header(Hdr.IF_MATCH);
        String ifNoneMatch = ex.header(Hdr.IF_NONE_MATCH);
        return ifMatch == null && ifNoneMatch == null ? Conditions.NONE : new Conditions(ifMatch, ifNoneMatch);
    }
}
