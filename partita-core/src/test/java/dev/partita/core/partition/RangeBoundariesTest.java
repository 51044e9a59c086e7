package dev.partita.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.partition.PartitionKeyValue.Num;
import dev.partita.core.partition.PartitionKeyValue.Str;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RangeBoundariesTest {

    static final PartitionKeyDefinition V1 = PartitionKeyDefinition.hashV1("/pk");
    static final PartitionKeyDefinition V2 = PartitionKeyDefinition.hash("/pk");
    static final PartitionKeyDefinition MULTI = PartitionKeyDefinition.multiHash("/tenantId", "/userId", "/sessionId");
    static final List<PartitionKeyDefinition> ALL = List.of(V1, V2, MULTI);

    static String epkOfRandomKey(PartitionKeyDefinition def, Random r) {
        PartitionKeyValue v;
        if (def.kind() == PartitionKind.MULTI_HASH) {
            v = PartitionKeyValue.of(new Str("t" + r.nextInt(1_000_000)), new Str("u" + r.nextLong()),
                    new Num(r.nextInt()));
        } else if (r.nextInt(4) == 0) {
            v = PartitionKeyValue.of(new Num(r.nextInt()));
        } else {
            v = PartitionKeyValue.of(new Str(Long.toHexString(r.nextLong()) + "-" + r.nextInt(1000)));
        }
        return EffectivePartitionKey.of(def, v);
    }

    @Test
    void knownPoints() {
        assertThat(RangeBoundaries.even(V2, 1)).isEmpty();
        assertThat(RangeBoundaries.even(V2, 2)).containsExactly("1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
        assertThat(RangeBoundaries.even(MULTI, 2)).containsExactly("1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
        assertThat(RangeBoundaries.even(V2, 4)).containsExactly("0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE", "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD");
        // V1: the binary-encoded number 0x7FFFFFFF, the same bytes as the tail of the SDK's Integer.MAX_VALUE vector
        assertThat(RangeBoundaries.even(V1, 2)).containsExactly("05C1DFFFFFFFFC");
        assertThat(RangeBoundaries.even(V1, 1)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 16, 100})
    void pointsAscendAndRangesTile(int n) {
        for (PartitionKeyDefinition def : ALL) {
            List<String> points = RangeBoundaries.even(def, n);
            assertThat(points).hasSize(n - 1).isSorted().doesNotHaveDuplicates();
            for (String p : points) {
                assertThat(p).matches("[0-9A-F]+").isGreaterThan(EffectivePartitionKey.MIN)
                        .isLessThan(EffectivePartitionKey.MAX);
                if (def != V1) {
                    assertThat(p).hasSize(32);
                }
            }
            List<EpkRange> ranges = RangeBoundaries.evenRanges(def, n);
            assertThat(ranges).hasSize(n);
            assertThat(ranges.get(0).minInclusive()).isEqualTo(EffectivePartitionKey.MIN);
            assertThat(ranges.get(n - 1).maxExclusive()).isEqualTo(EffectivePartitionKey.MAX);
            for (int i = 0; i < n; i++) {
                assertThat(ranges.get(i).minInclusive()).isLessThan(ranges.get(i).maxExclusive());
                if (i > 0) {
                    assertThat(ranges.get(i).minInclusive()).isEqualTo(ranges.get(i - 1).maxExclusive());
                }
            }
        }
    }

    @Test
    void everyKeyFallsIntoExactlyOneRange() {
        Random r = new Random(42);
        for (PartitionKeyDefinition def : ALL) {
            for (int n = 1; n <= 7; n++) {
                List<EpkRange> ranges = RangeBoundaries.evenRanges(def, n);
                for (int k = 0; k < 3000; k++) {
                    String epk = epkOfRandomKey(def, r);
                    long owners = ranges.stream().filter(x -> x.contains(epk)).count();
                    assertThat(owners).as("owners of a key for %s n=%d", def.kind(), n).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void spreadIsEven() {
        Random r = new Random(7);
        int keys = 10_000;
        for (PartitionKeyDefinition def : ALL) {
            List<String> epks = new ArrayList<>(keys);
            for (int k = 0; k < keys; k++) {
                epks.add(epkOfRandomKey(def, r));
            }
            for (int n = 1; n <= 7; n++) {
                List<EpkRange> ranges = RangeBoundaries.evenRanges(def, n);
                int[] counts = new int[n];
                for (String e : epks) {
                    for (int i = 0; i < n; i++) {
                        if (ranges.get(i).contains(e)) {
                            counts[i]++;
                        }
                    }
                }
                double share = (double) keys / n;
                for (int c : counts) {
                    assertThat((double) c).as("%s n=%d", def.kind(), n).isBetween(share * 0.7, share * 1.3);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ midpoint

    @Test
    void midpointOfTheWholeSpace() {
        assertThat(RangeBoundaries.midpoint(V2, "", "FF")).isEqualTo("20000000000000000000000000000000");
        assertThat(RangeBoundaries.midpoint(MULTI, "", "FF")).isEqualTo("20000000000000000000000000000000");
        // V1: the encoded hash 2^31
        String v1 = RangeBoundaries.midpoint(V1, "", "FF");
        assertThat(KeyEncoding.decodeLeadingNumber(v1)).isEqualTo(2147483648.0);
    }

    @Test
    void midpointOfEvenRangesSplitsTheirHashSpace() {
        List<String> quarters = RangeBoundaries.even(V2, 4);
        String mid = RangeBoundaries.midpoint(V2, "", quarters.get(0));
        assertThat(mid).isEqualTo("07FFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
        String last = RangeBoundaries.midpoint(V2, quarters.get(2), "FF");
        assertThat(last).isGreaterThan(quarters.get(2)).isLessThan("40").hasSize(32);
    }

    @Test
    void midpointInsideAHierarchicalPrefixSplitsTheNextLevel() {
        String t1 = EffectivePartitionKey.of(MULTI, PartitionKeyValue.fromHeader("[\"tenant1\"]"));
        EpkRange tenant = EpkRange.forPrefix(t1);
        String mid = RangeBoundaries.midpoint(MULTI, tenant.minInclusive(), tenant.maxExclusive());
        assertThat(mid).isEqualTo(t1 + "20000000000000000000000000000000");
        assertThat(tenant.contains(mid)).isTrue();
        // halves of the tenant both receive keys
        Random r = new Random(1);
        int left = 0;
        for (int i = 0; i < 1000; i++) {
            String e = EffectivePartitionKey.of(MULTI,
                    PartitionKeyValue.of(new Str("tenant1"), new Str("u" + r.nextLong()), new Str("s")));
            assertThat(tenant.contains(e)).isTrue();
            if (e.compareTo(mid) < 0) {
                left++;
            }
        }
        assertThat(left).isBetween(350, 650);
    }

    @Test
    void midpointFallsBackToTheStringMiddle() {
        String lo = "3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF";
        String m = RangeBoundaries.midpoint(V2, lo, "FF");
        assertThat(m).isGreaterThan(lo).isLessThan("FF");
        assertThat(RangeBoundaries.midpoint(V2, "1F", "1F01")).isGreaterThan("1F").isLessThan("1F01");
        String a = "05C1DFFFFFFFFC";
        String b = "05C1DFFFFFFFFC0801";
        assertThat(RangeBoundaries.midpoint(V1, a, b)).isGreaterThan(a).isLessThan(b);
    }

    @Test
    void midpointRejectsEmptyOrInvertedRanges() {
        assertThatThrownBy(() -> RangeBoundaries.midpoint(V2, "1F", "1F")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RangeBoundaries.midpoint(V2, "2F", "1F")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RangeBoundaries.midpoint(V2, "1F", "1F00")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RangeBoundaries.midpoint(V2, "", "XZ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 300)
    void midpointIsStrictlyInsideRangesBetweenRealKeys(@ForAll("defIndex") @IntRange(min = 0, max = 2) int d,
            @ForAll long seed) {
        PartitionKeyDefinition def = ALL.get(d);
        Random r = new Random(seed);
        String a = epkOfRandomKey(def, r);
        String b = r.nextInt(5) == 0 ? "FF" : epkOfRandomKey(def, r);
        if (r.nextInt(5) == 0) {
            a = "";
        }
        if (a.equals(b)) {
            return;
        }
        String min = a.compareTo(b) < 0 ? a : b;
        String max = a.compareTo(b) < 0 ? b : a;
        String mid = RangeBoundaries.midpoint(def, min, max);
        assertThat(mid).isGreaterThan(min).isLessThan(max);
        assertThat(mid.length() % 2).isZero();
        // and splitting again keeps working
        String quarter = RangeBoundaries.midpoint(def, min, mid);
        assertThat(quarter).isGreaterThan(min).isLessThan(mid);
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Integer> defIndex() {
        return net.jqwik.api.Arbitraries.integers().between(0, 2);
    }

    @Test
    void evenRejectsZero() {
        assertThatThrownBy(() -> RangeBoundaries.even(V2, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    // ------------------------------------------------------------------------------------------------- EpkRange

    @Test
    void epkRanges() {
        EpkRange full = EpkRange.full();
        assertThat(full).isEqualTo(new EpkRange("", "FF"));
        assertThat(full.contains("")).isTrue();
        assertThat(full.contains("3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF")).isTrue();
        assertThat(full.contains("FF")).isFalse();
        EpkRange r = new EpkRange("10", "20");
        assertThat(r.contains("10")).isTrue();
        assertThat(r.contains("1FFFFF")).isTrue();
        assertThat(r.contains("20")).isFalse();
        assertThat(r.contains("0F")).isFalse();
        assertThat(r.overlaps(new EpkRange("1F", "30"))).isTrue();
        assertThat(r.overlaps(new EpkRange("20", "30"))).isFalse();
        assertThat(r.overlaps(new EpkRange("", "10"))).isFalse();
        assertThat(EpkRange.forPrefix("0DAE")).isEqualTo(new EpkRange("0DAE", "0DAEFF"));
        assertThat(new EpkRange("1F", "1F").isEmpty()).isTrue();
        assertThatThrownBy(() -> new EpkRange("20", "10")).isInstanceOf(IllegalArgumentException.class);
    }
}
