package dev.partita.core.store;

import java.util.ArrayList;
import java.util.List;

/** Puts and deletes that a {@link Store} applies together or not at all, in the order they were added. */
public final class WriteBatch {

    /** One operation of a batch; {@code value == null} means delete. */
    public record Op(byte[] key, byte[] value) {
        public boolean isDelete() {
            return value == null;
        }
    }

    private final List<Op> ops = new ArrayList<>(4);

    public WriteBatch put(byte[] key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value must not be null; use delete");
        }
        ops.add(new Op(key, value));
        return this;
    }

    public WriteBatch delete(byte[] key) {
        ops.add(new Op(key, null));
        return this;
    }

    public List<Op> ops() {
        return ops;
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    public int size() {
        return ops.size();
    }
}
