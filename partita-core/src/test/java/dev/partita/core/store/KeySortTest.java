package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** {@link KeySort} against the JDK's sort, over batches of every size around its insertion threshold. */
class KeySortTest {

    @Property(tries = 400)
    void ordersLikeArraysSort(@ForAll("batches") List<byte[]> batch) {
        byte[][] keys = batch.toArray(new byte[0][]);
        int[] order = KeySort.order(keys, keys.length);

        assertThat(order).as("a permutation").containsExactlyInAnyOrder(range(keys.length));
        byte[][] sorted = keys.clone();
        Arrays.sort(sorted, Bytes.COMPARATOR);
        for (int i = 0; i < keys.length; i++) {
            assertThat(keys[order[i]]).as("position %d", i).isEqualTo(sorted[i]);
        }
    }

    @Property(tries = 50)
    void sortsOnlyTheFirstNKeys(@ForAll("batches") List<byte[]> batch) {
        byte[][] keys = batch.toArray(new byte[batch.size() + 3][]); // trailing nulls, as a batch's spare room
        int[] order = KeySort.order(keys, batch.size());
        assertThat(order).containsExactlyInAnyOrder(range(batch.size()));
    }

    /** Keys as a batch has them: a long shared prefix, unsigned bytes past it, some equal, some prefixes of others. */
    @Provide
    Arbitrary<List<byte[]>> batches() {
        Arbitrary<byte[]> suffix = Arbitraries.bytes().between((byte) -3, (byte) 3).array(byte[].class).ofMaxSize(5);
        Arbitrary<byte[]> key = suffix.map(s -> {
            byte[] k = Arrays.copyOf("c/1/item/".getBytes(), 9 + s.length);
            System.arraycopy(s, 0, k, 9, s.length);
            return k;
        });
        return key.list().ofMaxSize(200);
    }

    private static Integer[] range(int n) {
        Integer[] r = new Integer[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
