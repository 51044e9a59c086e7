package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.store.MemoryStore.Slot;
import dev.partita.core.store.MemoryStore.Version;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The point-read index against a map, through deaths, rewrites and resizes, and with readers during resizes. */
class SlotIndexTest {

    @Test
    void agreesWithAMapThroughDeathsRewritesAndResizes() {
        Random random = new Random(3);
        SlotIndex index = new SlotIndex();
        Map<ByteBuffer, Slot> live = new HashMap<>();
        List<Slot> all = new ArrayList<>();
        for (int step = 0; step < 60_000; step++) {
            // a small key space (rewrites of dead keys) that grows (resizes), with hashes forced to collide sometimes
            byte[] key = StoreContractTest.k(random.nextInt(1 + step / 4));
            int hash = random.nextInt(8) == 0 ? 42 : SlotIndex.hash(key);
            if (random.nextInt(3) == 0) {
                Slot victim = live.remove(ByteBuffer.wrap(key));
                if (victim != null) {
                    victim.head = null;
                    index.died();
                }
                continue;
            }
            Slot fresh = new Slot(key, new Version(1, key, null));
            Slot existing = index.putIfAbsent(hash(key, hash), fresh);
            assertThat(existing).isSameAs(live.get(ByteBuffer.wrap(key)));
            if (existing == null) {
                live.put(ByteBuffer.wrap(key), fresh);
                all.add(fresh);
            }
            if (step % 1000 == 0) {
                for (Slot s : all) {
                    Slot found = index.get(s.key, hash(s.key, SlotIndex.hash(s.key)));
                    Slot expected = live.get(ByteBuffer.wrap(s.key));
                    assertThat(found == null || found.head == null ? null : found).isSameAs(expected);
                }
            }
        }
    }

    /** One key keeps its hash once chosen: the test's forced collisions must not change it. */
    private final Map<ByteBuffer, Integer> hashes = new HashMap<>();

    private int hash(byte[] key, int proposed) {
        return hashes.computeIfAbsent(ByteBuffer.wrap(key), k -> proposed);
    }

    @Test
    void readersFindEveryInsertedKeyWhileTheTableGrows() throws InterruptedException {
        SlotIndex index = new SlotIndex();
        AtomicInteger inserted = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            readers.add(StoreContractTest.start(failure, () -> {
                Random random = new Random();
                while (!done.get()) {
                    int n = inserted.get();
                    if (n > 0) {
                        byte[] key = StoreContractTest.k(random.nextInt(n));
                        assertThat(index.get(key, SlotIndex.hash(key))).isNotNull();
                    }
                }
            }));
        }
        Thread writer = StoreContractTest.start(failure, () -> {
            for (int i = 0; i < 400_000 && failure.get() == null; i++) {
                byte[] key = StoreContractTest.k(i);
                index.putIfAbsent(SlotIndex.hash(key), new Slot(key, new Version(1, key, null)));
                inserted.set(i + 1);
            }
            done.set(true);
        });
        StoreContractTest.join(writer, readers, failure);
    }
}
