package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.index.ComputedProperties;
import dev.partita.core.json.Json;
import dev.partita.core.item.StoredItem;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The items a query page evaluates, parsed one at a time, with the store key the evaluator is on (an item key for a
 * scan, an index entry key for a lookup: the key a continuation resumes at) and the work done so far.
 */
abstract class ItemSource implements Iterable<JsonNode>, AutoCloseable {
    /** What {@link #advance()} returns when there are no more candidates. */
    static final byte[] END = new byte[0];
    /**
     * What {@link #advance()} returns when the deadline passed during a walk that loads no item, with
     * {@link #position} set to the key to resume at: the read stops there, between items (or fails with 408).
     */
    static final byte[] BETWEEN = new byte[0];
    /** How many candidates {@link #candidatesLeft} reads past the page at most: versions hidden from reads are few. */
    private static final int LOOK_AHEAD = 16;

    private final Visibility visible;
    private ComputedProperties computed = ComputedProperties.NONE;
    private Deadline deadline = Deadline.NONE;
    private boolean stopAtDeadline;
    private long atLeast = 1;
    private boolean stoppedEarly;
    private boolean betweenItems;
    /** The key the current candidate is known by; set by {@link #advance()}. */
    byte[] position;
    /** The store key of the current candidate item; set by {@link #advance()}. */
    byte[] itemKey;
    byte[] currentKey;
    private boolean changed;
    long entriesRead;
    long items;
    long bytes;

    ItemSource(Visibility visible) {
        this.visible = visible;
    }


    /**
     * Moves to the next candidate: returns its stored bytes (or null when it vanished) after setting
     * {@link #position} and {@link #itemKey}; returns {@link #END} when there are no more.
     */
    abstract byte[] advance();

    /**
     * Bounds the read by {@code d}: past it, the source either ends after the item it is on ({@code stop}: a
     * streamed page returns what it has with a continuation) or fails with 408 (a materialized result cannot be
     * partial).
     */
    ItemSource until(Deadline d, boolean stop, boolean resumes) {
        this.deadline = d;
        this.stopAtDeadline = stop;
        // a resumed read starts by reading its resume item again: progress needs one item past it
        this.atLeast = resumes ? 2 : 1;
        return this;
    }

    /** The deadline the read is bounded by, for the walks of a kind that load no item. */
    final Deadline deadline() {
        return deadline;
    }

    /** Gives every item the container's computed properties before the query sees it. */
    ItemSource computing(ComputedProperties properties) {
        this.computed = properties;
        return this;
    }

    /** Whether the read ended at the deadline with candidates left. */
    boolean stoppedEarly() {
        return stoppedEarly;
    }

    /** Whether the read stopped at a key no item was read at: the page returned none of that key's rows. */
    boolean stoppedBetweenItems() {
        return betweenItems;
    }

    /**
     * Where a read that stopped early and answered its items whole reads on: the key it stopped at when it read no
     * item there, else the smallest key after the item it read.
     */
    byte[] nextKey() {
        return betweenItems ? currentKey : Arrays.copyOf(currentKey, currentKey.length + 1);
    }

    /**
     * Whether a visible candidate follows the last one read: a full page asks before it hands out a continuation, so
     * that the last page of a read is not followed by an empty one (a client that re-creates its iterator from every
     * token would ask for that empty page forever). Looks at no more than {@link #LOOK_AHEAD} candidates and says
     * true when it cannot tell; moves the read on, so it is asked once, after the page's continuation is taken.
     */
    boolean candidatesLeft() {
        for (int i = 0; i < LOOK_AHEAD; i++) {
            byte[] raw = advance();
            if (raw == END) {
                return false;
            }
            if (raw == BETWEEN || raw != null && visible.sees(itemKey, StoredItem.wrap(raw))) {
                return true;
            }
        }
        return true;
    }

    boolean changedItem() {
        boolean c = changed;
        changed = false;
        return c;
    }

    boolean isResumeItem(byte[] resumeKey) {
        return resumeKey != null && Arrays.equals(resumeKey, currentKey);
    }

    @Override
    public void close() {
    }

    @Override
    public Iterator<JsonNode> iterator() {
        return new Iterator<>() {
            private JsonNode next;

            @Override
            public boolean hasNext() {
                while (next == null) {
                    if (items >= atLeast && deadline.passed()) {
                        if (!stopAtDeadline) {
                            throw QueryErrors.timedOut();
                        }
                        stoppedEarly = true;
                        return false;
                    }
                    byte[] raw = advance();
                    if (raw == END) {
                        return false;
                    }
                    if (raw == BETWEEN) {
                        if (!stopAtDeadline) {
                            throw QueryErrors.timedOut();
                        }
                        stoppedEarly = true;
                        betweenItems = true;
                        currentKey = position;
                        return false;
                    }
                    if (raw == null) {
                        continue;
                    }
                    StoredItem item = StoredItem.wrap(raw);
                    if (!visible.sees(itemKey, item)) {
                        continue;
                    }
                    items++;
                    bytes += item.jsonLength();
                    currentKey = position;
                    changed = true;
                    next = computed.applyTo(Json.parse(item.json(), "stored item"));
                }
                return true;
            }

            @Override
            public JsonNode next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                JsonNode n = next;
                next = null;
                return n;
            }
        };
    }
}
