package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.store.MemoryStore.Slot;
import dev.partita.core.store.MemoryStore.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The key order's runs and merges against a model, with keys built to make offset-value codes tie: long shared
 * prefixes, keys that extend others by zero bytes, 0xFF bytes, lengths around the codes' 6-byte units.
 */
class KeyOrderTest {

    @Test
    void everyMergedRunIsSortedAndCodedRelativeToItsPredecessor() {
        Random random = new Random(5);
        for (int round = 0; round < 300; round++) {
            TreeMap<byte[], Slot> model = new TreeMap<>(Bytes.COMPARATOR);
            KeyRun older = run(random, model, 1 + random.nextInt(60));
            KeyRun newer = run(random, model, 1 + random.nextInt(60));
            KeyRun merged = KeyRun.merge(older, newer, 0);
            assertCoded(merged);
            assertThat(hex(merged.keys)).isEqualTo(hex(model.keySet().toArray(new byte[0][])));
            KeyRun again = KeyRun.merge(merged, run(random, model, 1 + random.nextInt(90)), 0);
            assertCoded(again);
            assertThat(hex(again.keys)).isEqualTo(hex(model.keySet().toArray(new byte[0][])));
        }
    }

    @Test
    void mergesDropDeadSlotsAndKeepTheLiveOneOfAKeyInTwoRuns() {
        Random random = new Random(11);
        for (int round = 0; round < 300; round++) {
            TreeMap<byte[], Slot> model = new TreeMap<>(Bytes.COMPARATOR);
            KeyRun older = run(random, model, 1 + random.nextInt(60));
            // kill some keys of the older run, and write some of them again (a new slot in the newer run)
            List<byte[]> rewritten = new ArrayList<>();
            long deaths = 0;
            for (byte[] key : older.keys) {
                if (random.nextInt(3) == 0) {
                    model.remove(key).head = null;
                    deaths++;
                    if (random.nextBoolean()) {
                        rewritten.add(key);
                    }
                }
            }
            KeyRun newer = run(random, model, random.nextInt(40), rewritten);
            KeyRun merged = KeyRun.merge(older, newer, deaths);
            assertCoded(merged);
            assertThat(hex(merged.keys)).isEqualTo(hex(model.keySet().toArray(new byte[0][])));
            for (int i = 0; i < merged.size(); i++) {
                assertThat(merged.slots[i]).isSameAs(model.get(merged.keys[i]));
            }
        }
    }

    @Test
    void rangesAgreeWithAModelThroughBatchesAndDeaths() {
        Random random = new Random(23);
        KeyOrder order = new KeyOrder();
        TreeMap<byte[], Slot> model = new TreeMap<>(Bytes.COMPARATOR);
        for (int step = 0; step < 2000; step++) {
            if (random.nextInt(4) == 0 && !model.isEmpty()) {
                byte[] victim = model.keySet().toArray(new byte[0][])[random.nextInt(model.size())];
                model.remove(victim).head = null;
                order.died();
            } else {
                int n = 1 + random.nextInt(random.nextInt(10) == 0 ? 200 : 16);
                byte[][] keys = new byte[n][];
                Slot[] slots = new Slot[n];
                int added = 0;
                for (int i = 0; i < n; i++) {
                    byte[] key = key(random);
                    if (!model.containsKey(key)) {
                        keys[added] = key;
                        slots[added] = new Slot(key, new Version(1, key, null));
                        model.put(key, slots[added++]);
                    }
                }
                order.addAll(keys, slots, added);
            }
            if (step % 25 == 0) {
                byte[] from = random.nextInt(5) == 0 ? null : key(random);
                byte[] to = random.nextInt(5) == 0 ? null : key(random);
                Map<byte[], Slot> expected = from == null && to == null ? model
                        : from == null ? model.headMap(to) : to == null ? model.tailMap(from)
                        : Bytes.compare(from, to) >= 0 ? Map.of() : model.subMap(from, to);
                assertThat(live(order.range(from, to, false))).isEqualTo(hex(expected.keySet().toArray(new byte[0][])));
                assertThat(live(order.range(from, to, true)))
                        .isEqualTo(hex(expected.keySet().toArray(new byte[0][])).reversed());
            }
        }
    }

    private static List<String> live(KeyRange range) {
        List<String> out = new ArrayList<>();
        byte[] last = null;
        while (range.next()) {
            if (range.slot().head != null) {
                out.add(Bytes.hex(range.key()));
            }
            last = range.key();
        }
        assertThat(last == null || !range.next()).isTrue();
        return out;
    }

    private static void assertCoded(KeyRun run) {
        for (int i = 0; i < run.size(); i++) {
            byte[] previous = i == 0 ? null : run.keys[i - 1];
            if (previous != null) {
                assertThat(Bytes.compare(previous, run.keys[i])).isNegative();
            }
            assertThat(run.codes[i]).as("code of key %d", i).isEqualTo(KeyCodes.code(previous, run.keys[i]));
        }
    }

    private static KeyRun run(Random random, TreeMap<byte[], Slot> model, int n) {
        return run(random, model, n, List.of());
    }

    /** A run of {@code n} new random keys plus {@code also}, all added to the model. */
    private static KeyRun run(Random random, TreeMap<byte[], Slot> model, int n, List<byte[]> also) {
        List<byte[]> keys = new ArrayList<>(also);
        while (keys.size() < n + also.size()) {
            byte[] key = key(random);
            if (!model.containsKey(key) && keys.stream().noneMatch(k -> Arrays.equals(k, key))) {
                keys.add(key);
            }
        }
        Slot[] slots = new Slot[keys.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(keys.get(i), new Version(1, keys.get(i), null));
            model.put(keys.get(i), slots[i]);
        }
        return KeyRun.sorted(keys.toArray(new byte[0][]), slots, slots.length, 0);
    }

    /** Keys from a tiny alphabet with shared prefixes of around one or two 6-byte units, so codes often tie. */
    private static byte[] key(Random random) {
        byte[][] prefixes = {{}, {7, 7, 7, 7, 7}, {7, 7, 7, 7, 7, 7}, {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1}};
        byte[] prefix = prefixes[random.nextInt(prefixes.length)];
        byte[] alphabet = {0, 1, 7, (byte) 0x80, (byte) 0xFF};
        byte[] key = Arrays.copyOf(prefix, prefix.length + random.nextInt(9));
        for (int i = prefix.length; i < key.length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }

    private static List<String> hex(byte[][] keys) {
        return Arrays.stream(keys).map(Bytes::hex).toList();
    }
}
