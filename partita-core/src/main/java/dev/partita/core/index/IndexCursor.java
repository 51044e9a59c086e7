package dev.partita.core.index;

import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.StoreReader;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The entries of one index interval, or, for a string function, only the entries of the terms whose string the
 * function is true for: each distinct term is decoded and tested once, and the entries of a term that fails are passed
 * over without loading their items (after a few steps, by seeking past the term, so a popular value costs one seek
 * rather than one step per item). A term that may be truncated is always kept: its string is only the start of the
 * value, and the engine's evaluation of the query on the item decides.
 *
 * <p>A walk over many failing terms loads no item, so the read's own deadline checks never run during it: the cursor
 * checks the deadline itself before testing each new term and, once it passed, ends early ({@link #stopped()}) at the
 * first entry of the term it did not test, after testing at least one, so the read resumed there makes progress.
 */
public final class IndexCursor implements Cursor {
    /** Entries stepped over one by one before seeking past a failing term (a seek costs more than a step). */
    private static final int STEPS_BEFORE_SEEK = 8;

    private final StoreReader reader;
    private final byte[] to;
    private final Predicate<String> test;
    private Cursor cursor;
    private byte[] term;
    private boolean matching;
    private int steps;
    private long termsExamined;
    private Deadline deadline = Deadline.NONE;
    private byte[] stoppedAt;

    private IndexCursor(StoreReader reader, byte[] from, byte[] to, Predicate<String> test) {
        this.reader = reader;
        this.to = to;
        this.test = test;
        this.cursor = reader.scan(from, to);
    }

    /** Every entry of {@code [from, to)}. */
    static IndexCursor all(StoreReader reader, byte[] from, byte[] to) {
        return new IndexCursor(reader, from, to, null);
    }

    /** The entries of {@code [from, to)} (string terms only) whose term's string passes {@code test}. */
    static IndexCursor matching(StoreReader reader, byte[] from, byte[] to, Predicate<String> test) {
        return new IndexCursor(reader, from, to, test);
    }

    /** Bounds the walk over failing terms by {@code d} (see {@link #stopped()}). */
    public IndexCursor until(Deadline d) {
        this.deadline = d;
        return this;
    }

    /** True when {@link #next()} ended at the deadline with terms left: {@link #stoppedAt()} resumes the walk. */
    public boolean stopped() {
        return stoppedAt != null;
    }

    /** The first entry of the term the walk did not test when the deadline stopped it. */
    public byte[] stoppedAt() {
        return stoppedAt;
    }

    @Override
    public boolean next() {
        while (cursor.next()) {
            if (test == null) {
                return true;
            }
            byte[] key = cursor.key();
            if (term != null && key.length >= term.length
                    && Arrays.equals(key, 0, term.length, term, 0, term.length)) {
                if (matching) {
                    return true;
                }
                if (++steps >= STEPS_BEFORE_SEEK) {
                    cursor.close();
                    cursor = reader.scan(Bytes.prefixEnd(term), to);
                }
                continue;
            }
            if (termsExamined > 0 && deadline.passed()) {
                stoppedAt = key;
                return false;
            }
            term = IndexTerms.termOf(key);
            termsExamined++;
            steps = 0;
            String s = IndexTerms.stringOf(term);
            matching = s != null && (IndexTerms.mayBeTruncated(s) || test.test(s));
            if (matching) {
                return true;
            }
        }
        return false;
    }

    /** Distinct terms tested so far (none without a test): the index scan's work beyond the entries it returns. */
    public long termsExamined() {
        return termsExamined;
    }

    @Override
    public byte[] key() {
        return cursor.key();
    }

    @Override
    public byte[] value() {
        return cursor.value();
    }

    @Override
    public void close() {
        cursor.close();
    }
}
