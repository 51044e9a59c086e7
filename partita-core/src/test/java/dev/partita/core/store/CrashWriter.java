package dev.partita.core.store;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * The child process of {@link RocksStoreCrashTest}: writes item-like batches forever and acknowledges each one on
 * stdout only after {@link Store#apply} returned, until it is killed. Also the single definition of what batch
 * {@code n} contains, so the parent can check every byte.
 *
 * <p>Batch {@code n} updates item {@code n % ITEMS} the way the engine writes an item: the item itself, a change-log
 * record keyed by {@code n}, a new index entry, and the removal of the item's previous index entry.
 */
public final class CrashWriter {
    static final int ITEMS = 64;
    static final byte ITEM = 'i';
    static final byte LOG = 'l';
    static final byte INDEX = 'x';

    private CrashWriter() {
    }

    /** {@code args}: the store folder and the first batch number to write. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long first = Long.parseLong(args[1]);
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        try (RocksStore store = RocksStore.open(dir)) {
            for (long n = first; ; n++) {
                store.apply(batch(n));
                out.write(("ACK " + n + "\n").getBytes(StandardCharsets.US_ASCII)); // one unbuffered write(2)
            }
        }
    }

    static WriteBatch batch(long n) {
        int item = item(n);
        WriteBatch batch = new WriteBatch()
                .put(itemKey(item), value(n, 'i'))
                .put(logKey(n), value(n, 'l'))
                .put(indexKey(item, n), value(n, 'x'));
        if (n >= ITEMS) {
            batch.delete(indexKey(item, n - ITEMS));
        }
        return batch;
    }

    static int item(long n) {
        return (int) (n % ITEMS);
    }

    static byte[] itemKey(int item) {
        return ByteBuffer.allocate(5).put(ITEM).putInt(item).array();
    }

    static byte[] logKey(long n) {
        return ByteBuffer.allocate(9).put(LOG).putLong(n).array();
    }

    static byte[] indexKey(int item, long n) {
        return ByteBuffer.allocate(13).put(INDEX).putInt(item).putLong(n).array();
    }

    /** [kind][n][payload length][payload][CRC32 of everything before]: deterministic, so byte-comparable. */
    static byte[] value(long n, char kind) {
        SplittableRandom random = new SplittableRandom(n * 31 + kind);
        byte[] payload = new byte[kind == 'x' ? 0 : 16 + random.nextInt(300)];
        random.nextBytes(payload);
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + payload.length + 8);
        b.put((byte) kind).putLong(n).putInt(payload.length).put(payload);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, b.position());
        return b.putLong(crc.getValue()).array();
    }

    /** The batch number embedded in a value written by {@link #value}, after checking its checksum. */
    static long batchOf(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        CRC32 crc = new CRC32();
        crc.update(value, 0, value.length - 8);
        if (value.length < 21 || b.getLong(value.length - 8) != crc.getValue()) {
            throw new AssertionError("torn or corrupt value: " + Bytes.hex(value));
        }
        return b.getLong(1);
    }
}
