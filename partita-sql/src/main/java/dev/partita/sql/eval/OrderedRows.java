package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.value.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The ORDER BY of one compiled SELECT: evaluates the sort keys of every row and keeps a copy of its slots; when only
 * the first {@code keep} rows can be returned (TOP / OFFSET+LIMIT without DISTINCT) a bounded heap keeps just those.
 * <p>
 * Rows with equal keys come in the order of their item's {@code _rid} document number, ascending when the first key
 * is ascending and descending when it is descending, as the service's index returns them (the SDKs rely on it to
 * resume cross-partition ORDER BY queries: query-plans.md §2.1, §3.2); rows without a readable {@code _rid} come
 * after those with one, in input order.
 */
final class OrderedRows {
    private static final long TOP_HEAP_LIMIT = 10_000;

    private final Eval[] keys;
    private final boolean[] descending;
    private final Comparator<SortRow> order;

    OrderedRows(Eval[] keys, boolean[] descending) {
        this.keys = keys;
        this.descending = descending;
        this.order = (a, b) -> {
            for (int i = 0; i < descending.length; i++) {
                int c = Values.compareTotal(a.keys[i], b.keys[i]);
                if (c != 0) {
                    return descending[i] ? -c : c;
                }
            }
            if (a.rid != null && b.rid != null) {
                int c = Long.compare(a.rid, b.rid);
                if (c != 0) {
                    return descending[0] ? -c : c;
                }
            } else if (a.rid != null || b.rid != null) {
                return a.rid != null ? -1 : 1;
            }
            return Long.compare(a.seq, b.seq);
        };
    }

    /**
     * Sorts the query's rows and emits their projections in order.
     *
     * @param itemSlot the slot of the FROM source's item (its {@code _rid}), or -1
     */
    void run(CompiledQuery q, Frame f, int itemSlot, Projection projection, Emitter em, long keep) {
        List<SortRow> rows;
        if (keep <= TOP_HEAP_LIMIT) {
            PriorityQueue<SortRow> heap = new PriorityQueue<>((int) keep + 1, order.reversed());
            long[] seq = {0};
            q.next(f, 0, fr -> {
                SortRow r = new SortRow(sortKeys(fr), seq[0]++, documentNumber(fr, itemSlot), null);
                if (heap.size() < keep) {
                    heap.add(new SortRow(r.keys, r.seq, r.rid, fr.slots.clone()));
                } else if (order.compare(r, heap.peek()) < 0) {
                    heap.poll();
                    heap.add(new SortRow(r.keys, r.seq, r.rid, fr.slots.clone()));
                }
                return true;
            });
            rows = new ArrayList<>(heap);
        } else {
            List<SortRow> all = new ArrayList<>();
            long[] seq = {0};
            q.next(f, 0, fr -> {
                all.add(new SortRow(sortKeys(fr), seq[0]++, documentNumber(fr, itemSlot), fr.slots.clone()));
                return true;
            });
            rows = all;
        }
        rows.sort(order);
        for (SortRow r : rows) {
            System.arraycopy(r.slots, 0, f.slots, 0, r.slots.length);
            if (!em.emit(projection.project(f))) {
                return;
            }
        }
    }

    private JsonNode[] sortKeys(Frame f) {
        JsonNode[] out = new JsonNode[keys.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = keys[i].eval(f);
        }
        return out;
    }

    /** The document number of the row's item {@code _rid} (as the SDKs read it), or null. */
    private static Long documentNumber(Frame f, int itemSlot) {
        if (itemSlot < 0 || f.slots[itemSlot] == null) {
            return null;
        }
        JsonNode rid = f.slots[itemSlot].get("_rid");
        return rid != null && rid.isTextual() ? Rids.documentNumber(rid.textValue()) : null;
    }

    private record SortRow(JsonNode[] keys, long seq, Long rid, JsonNode[] slots) {
    }
}
