package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One FROM or JOIN source of a compiled query: it binds its slot to each value it yields (the container's items, a
 * path into them, a value of aliases already bound, or a subquery's rows) and hands the row on to the next source.
 */
abstract class RowSource {
    final int slot;
    final boolean iterate;

    RowSource(int slot, boolean iterate) {
        this.slot = slot;
        this.iterate = iterate;
    }

    abstract boolean run(Frame f, CompiledQuery q, int index, CompiledQuery.RowHandler h);

    /** The slot holding the container item a row comes from, or -1 when rows do not come from the container. */
    int itemSlot() {
        return -1;
    }

    final boolean bind(Frame f, JsonNode v, CompiledQuery q, int index, CompiledQuery.RowHandler h) {
        if (v == null) {
            return true;
        }
        if (iterate) {
            if (!v.isArray()) {
                return true;
            }
            for (int i = 0, n = v.size(); i < n; i++) {
                f.bound();
                f.slots[slot] = v.get(i);
                if (!q.next(f, index + 1, h)) {
                    return false;
                }
            }
            return true;
        }
        f.slots[slot] = v;
        return q.next(f, index + 1, h);
    }

    /** The container's items, optionally through a path (FROM c.children, FROM x IN c.arr). */
    static final class Container extends RowSource {
        private final int itemSlot;
        private final Eval path;

        Container(int slot, boolean iterate, int itemSlot, Eval path) {
            super(slot, iterate);
            this.itemSlot = itemSlot;
            this.path = path;
        }

        @Override
        int itemSlot() {
            return itemSlot;
        }

        @Override
        boolean run(Frame f, CompiledQuery q, int index, CompiledQuery.RowHandler h) {
            if (f.items == null) {
                return true;
            }
            for (JsonNode item : f.items) {
                f.nextItem();
                JsonNode v = item;
                if (path != null) {
                    f.slots[itemSlot] = item;
                    v = path.eval(f);
                }
                if (!bind(f, v, q, index, h)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A value computed from aliases already bound (JOIN t IN c.tags, FROM p.inventory in a subquery). */
    static final class Bound extends RowSource {
        private final Eval collection;

        Bound(int slot, boolean iterate, Eval collection) {
            super(slot, iterate);
            this.collection = collection;
        }

        @Override
        boolean run(Frame f, CompiledQuery q, int index, CompiledQuery.RowHandler h) {
            return bind(f, collection.eval(f), q, index, h);
        }
    }

    /** The rows of a subquery (FROM (SELECT ...) x, JOIN (SELECT ...) x). */
    static final class Subquery extends RowSource {
        private final CompiledQuery subquery;

        Subquery(int slot, boolean iterate, CompiledQuery subquery) {
            super(slot, iterate);
            this.subquery = subquery;
        }

        @Override
        boolean run(Frame f, CompiledQuery q, int index, CompiledQuery.RowHandler h) {
            boolean[] go = {true};
            subquery.run(f, row -> {
                go[0] = bind(f, row, q, index, h);
                return go[0];
            });
            return go[0];
        }
    }
}
