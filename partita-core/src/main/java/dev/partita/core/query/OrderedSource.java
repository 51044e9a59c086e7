package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.request.Deadline;
import dev.partita.core.index.ComputedProperties;
import dev.partita.core.json.Json;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.item.StoredItem;
import dev.partita.core.item.Visibility;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.plan.SortBounds;
import dev.partita.sql.value.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The items of a scope in ORDER BY order, read through the first key's index entries instead of loading every item.
 *
 * <p>The order comes in three parts: items whose first key is undefined, then the index's scalar terms of that path
 * in value order, then items whose first key is an array or object (descending: the reverse). Items that share a
 * term form a group, which is loaded whole and sorted by every key and the rid document number — so strings that
 * share a truncated term, numbers that share a double, ties and the later keys of a composite order all come out
 * exactly as the evaluator's ORDER BY gives them. A page stops inside a group; its continuation names the part, the
 * group's term and the position in the sorted group. A run of terms none of whose items is in the scope (other
 * partitions' values) loads no item, so the deadline also ends the read between groups, at the next term.
 */
final class OrderedSource implements Iterable<JsonNode>, AutoCloseable {
    private Deadline deadline = Deadline.NONE;
    private boolean stoppedEarly;
    /** The term the read stopped before, in a run of terms with no item in the scope (see {@link #nextGroup}). */
    private byte[] stopTerm;
    private long yielded;
    private long atLeast = 1;
    /** The parts of the order, ascending. */
    enum Part {
        UNDEFINED('U'), INDEXED('I'), CONTAINERS('C');

        final char code;

        Part(char code) {
            this.code = code;
        }

        static Part of(char code) {
            for (Part p : values()) {
                if (p.code == code) {
                    return p;
                }
            }
            throw new IllegalArgumentException("no part " + code);
        }
    }

    /** Where a page stopped: the part, the group's term (indexed part only), the item's place in the group. */
    record Position(Part part, byte[] term, int index) {
        boolean sameAs(Position other) {
            return other != null && part == other.part && index == other.index && Arrays.equals(term, other.term);
        }
    }

    /** Reads the items of the two non-indexed parts (see {@link NonScalarItems}). */
    interface NonScalar {
        List<byte[]> keys(NonScalarItems.Kind kind);
    }

    private final Snapshot snapshot;
    private final int container;
    private final SortKeys keys;
    private final QueryExecutor.Bounds bounds;
    private final NonScalar nonScalar;
    private final Visibility visible;
    private final List<Part> parts;
    private final byte[][] indexRange;
    private final Position from;

    private int partIndex = -1;
    private Cursor cursor;
    private byte[] pendingEntry;
    private List<Member> group = List.of();
    private byte[] groupTerm;
    private int next;
    private boolean changed;

    /** The position of the item last handed out. */
    Position current;
    long entriesRead;
    long items;
    long bytes;

    /**
     * @param possible the part of the order the query's filter leaves possible for the first key: parts and index
     *                 terms outside it are not read
     */
    private ComputedProperties computed = ComputedProperties.NONE;

    OrderedSource(Snapshot snapshot, int container, SortKeys keys, QueryExecutor.Bounds bounds, NonScalar nonScalar,
            SortBounds possible, Position from, Visibility visible) {
        this.snapshot = snapshot;
        this.container = container;
        this.keys = keys;
        this.bounds = bounds;
        this.nonScalar = nonScalar;
        this.visible = visible;
        this.indexRange = IndexTerms.scalarRange(container, keys.first(), possible);
        List<Part> order = new ArrayList<>();
        if (!possible.isEmpty() && possible.low().type() == Values.T_UNDEFINED) {
            order.add(Part.UNDEFINED);
        }
        if (indexRange != null) {
            order.add(Part.INDEXED);
        }
        if (!possible.isEmpty() && possible.high().type() >= Values.T_ARRAY) {
            order.add(Part.CONTAINERS);
        }
        if (keys.firstDescending()) {
            java.util.Collections.reverse(order);
        }
        this.parts = order;
        this.from = from != null && parts.contains(from.part()) ? from : null;
        if (this.from != null) {
            partIndex = parts.indexOf(from.part()) - 1;
        }
    }

    /** Gives every item the container's computed properties before the sort keys and the query see it. */
    OrderedSource computing(ComputedProperties properties) {
        this.computed = properties;
        return this;
    }

    /** Bounds the read by {@code d}: past it, the source ends after the item it is on. */
    OrderedSource until(Deadline d, boolean resumes) {
        this.deadline = d;
        // a resumed read starts at its resume item again: progress needs one item past it
        this.atLeast = resumes ? 2 : 1;
        return this;
    }

    /** Whether the read ended at the deadline with items left. */
    boolean stoppedEarly() {
        return stoppedEarly;
    }

    /** Whether the read stopped before a group rather than at an item: the page returned none of its rows. */
    boolean stoppedBetweenItems() {
        return stopTerm != null;
    }

    boolean changedItem() {
        boolean c = changed;
        changed = false;
        return c;
    }

    @Override
    public Iterator<JsonNode> iterator() {
        return new Iterator<>() {
            /** hasNext found an item next() will return: next() must not re-check the deadline and lose it. */
            private boolean ready;

            @Override
            public boolean hasNext() {
                if (ready) {
                    return true;
                }
                while (true) {
                    if (yielded >= atLeast && deadline.passed()) {
                        stoppedEarly = true;
                        return false;
                    }
                    while (next >= group.size()) {
                        if (!nextGroup()) {
                            if (stopTerm != null) {
                                stoppedEarly = true;
                                current = new Position(Part.INDEXED, stopTerm, 0);
                            }
                            return false;
                        }
                    }
                    if (group.get(next).belongs(parts.get(partIndex))) {
                        ready = true;
                        return true;
                    }
                    next++;
                }
            }

            @Override
            public JsonNode next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ready = false;
                current = new Position(parts.get(partIndex), groupTerm, next);
                changed = true;
                yielded++;
                return group.get(next++).loaded().item();
            }
        };
    }

    /**
     * Whether an item follows the last one handed out, as {@link ItemSource#candidatesLeft}: true while the current
     * group has members (without parsing them, so a member whose key moved out of its part can still say true),
     * else whether a next group exists (its first index term is read; true when the walk reaches the deadline).
     */
    boolean candidatesLeft() {
        if (next < group.size()) {
            return true;
        }
        return nextGroup() || stopTerm != null;
    }

    /** Loads the next group (or the resumed one, positioned); false when the order is exhausted. */
    private boolean nextGroup() {
        while (true) {
            if (partIndex >= 0 && parts.get(partIndex) == Part.INDEXED && cursor != null) {
                if (readIndexedGroup()) {
                    return true;
                }
                if (stopTerm != null) {
                    return false;
                }
                cursor.close();
                cursor = null;
            }
            if (++partIndex >= parts.size()) {
                return false;
            }
            Part part = parts.get(partIndex);
            boolean resuming = from != null && part == from.part();
            if (part == Part.INDEXED) {
                openIndex(resuming ? from.term() : null);
                if (readIndexedGroup()) {
                    if (resuming && Arrays.equals(groupTerm, from.term())) {
                        next = Math.min(from.index(), group.size());
                    }
                    return true;
                }
                if (stopTerm != null) {
                    return false;
                }
                continue;
            }
            groupTerm = null;
            group = loadAll(nonScalar.keys(part == Part.UNDEFINED
                    ? NonScalarItems.Kind.UNDEFINED : NonScalarItems.Kind.CONTAINER), part);
            next = resuming ? Math.min(from.index(), group.size()) : 0;
            if (!group.isEmpty()) {
                return true;
            }
        }
    }

    private void openIndex(byte[] resumeTerm) {
        byte[] lo = indexRange[0];
        byte[] hi = indexRange[1];
        if (keys.firstDescending()) {
            byte[] resumeEnd = resumeTerm == null ? null : StoreKeys.prefixEnd(resumeTerm);
            cursor = snapshot.scanDescending(lo, resumeEnd != null && Bytes.compare(resumeEnd, hi) < 0 ? resumeEnd : hi);
        } else {
            cursor = snapshot.scan(resumeTerm != null && Bytes.compare(resumeTerm, lo) > 0 ? resumeTerm : lo, hi);
        }
        pendingEntry = null;
    }

    /** Reads the entries of the next term (skipping entries outside the scope) and loads their items. */
    private boolean readIndexedGroup() {
        while (true) {
            byte[] first = pendingEntry;
            pendingEntry = null;
            if (first == null) {
                if (!cursor.next()) {
                    return false;
                }
                first = cursor.key();
            }
            byte[] term = IndexTerms.termOf(first);
            List<byte[]> itemKeys = new ArrayList<>();
            byte[] entry = first;
            while (true) {
                byte[] itemKey = IndexTerms.itemKey(container, entry);
                if (bounds.contains(itemKey)) {
                    entriesRead++;
                    itemKeys.add(itemKey);
                }
                if (!cursor.next()) {
                    break;
                }
                entry = cursor.key();
                if (!startsWith(entry, term)) {
                    pendingEntry = entry;
                    break;
                }
            }
            if (itemKeys.isEmpty()) {
                // past the deadline the run ends before the next term: the term just passed is progress
                if (pendingEntry != null && deadline.passed()) {
                    stopTerm = IndexTerms.termOf(pendingEntry);
                    return false;
                }
                continue;
            }
            groupTerm = term;
            group = loadAll(itemKeys, Part.INDEXED);
            next = 0;
            if (!group.isEmpty()) {
                return true;
            }
        }
    }

    /**
     * The live items of a group in ORDER BY order. When the order inside the group is the rid's alone — one sort key
     * and a group whose items all have the same value for it (undefined, or an exact term: not a truncated string nor
     * a number beyond 2^53) — they are ordered by the stored rid sequence and parsed only when the page reaches them,
     * as the service's index hands out a value's items in rid order; otherwise every item is parsed and sorted.
     */
    private List<Member> loadAll(List<byte[]> itemKeys, Part part) {
        boolean byRid = keys.paths().size() == 1 && (part == Part.UNDEFINED
                || part == Part.INDEXED && IndexTerms.isExact(groupTerm));
        List<Member> members = new ArrayList<>(itemKeys.size());
        for (byte[] key : itemKeys) {
            byte[] raw = snapshot.get(key);
            if (raw == null) {
                continue;
            }
            StoredItem item = StoredItem.wrap(raw);
            if (visible.sees(key, item)) {
                Member m = new Member(item);
                if (!byRid) {
                    m.loaded();
                }
                members.add(m);
            }
        }
        if (byRid) {
            Comparator<Member> byRidSequence = Comparator.comparingLong(m -> m.stored.ridSequence());
            members.sort(keys.firstDescending() ? byRidSequence.reversed() : byRidSequence);
        } else {
            Comparator<SortKeys.Loaded> order = keys.order();
            members.sort((a, b) -> order.compare(a.loaded(), b.loaded()));
        }
        return members;
    }

    /** One item of a group: its stored form, parsed (and counted as loaded) the first time it is needed. */
    private final class Member {
        final StoredItem stored;
        private SortKeys.Loaded loaded;

        Member(StoredItem stored) {
            this.stored = stored;
        }

        SortKeys.Loaded loaded() {
            if (loaded == null) {
                items++;
                bytes += stored.jsonLength();
                loaded = keys.load(computed.applyTo(Json.parse(stored.json(), "stored item")),
                        stored.jsonLength());
            }
            return loaded;
        }

        boolean belongs(Part part) {
            return OrderedSource.belongs(loaded().keys()[0], part);
        }
    }

    /** The item's first key still fits the part it was found in (the non-scalar sets may be ahead of the snapshot). */
    private static boolean belongs(JsonNode first, Part part) {
        return switch (part) {
            case UNDEFINED -> first == null;
            case CONTAINERS -> first != null && first.isContainerNode();
            case INDEXED -> first != null && !first.isContainerNode();
        };
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    @Override
    public void close() {
        if (cursor != null) {
            cursor.close();
        }
    }
}
