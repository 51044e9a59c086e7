package dev.partita.sql.functions;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** The linear search answers exactly as {@code String.indexOf} and {@code lastIndexOf}, for short and long needles. */
class TextSearchTest {

    @Property(tries = 2_000)
    void bothSearchesAgreeWithTheJdk(@ForAll("cases") Tuple.Tuple3<String, String, Integer> c) {
        String hay = c.get1();
        String needle = c.get2();
        int from = c.get3();
        TextSearch search = new TextSearch(needle);
        assertThat(search.indexOf(hay, from)).as("%s in %s from %d", needle, hay, from)
                .isEqualTo(hay.indexOf(needle, from));
        assertThat(search.lastIndexOf(hay, from)).as("%s in %s before %d", needle, hay, from)
                .isEqualTo(hay.lastIndexOf(needle, from));
    }

    /**
     * Strings over two letters (so that long needles match often and partly), needles up to twice the short bound
     * and often cut from the haystack itself, and starting points on both sides of the haystack.
     */
    @Provide
    Arbitrary<Tuple.Tuple3<String, String, Integer>> cases() {
        Arbitrary<String> hay = Arbitraries.strings().withChars("ab").ofMinLength(0).ofMaxLength(200);
        return hay.flatMap(h -> {
            Arbitrary<String> cut = Arbitraries.integers().between(0, h.length()).flatMap(start ->
                    Arbitraries.integers().between(start, Math.min(h.length(), start + 70)).map(end ->
                            h.substring(start, end)));
            Arbitrary<String> free = Arbitraries.strings().withChars("ab").ofMinLength(0).ofMaxLength(70);
            Arbitrary<String> needle = Arbitraries.oneOf(cut, free, cut.map(s -> s + "b"), cut.map(s -> "a" + s));
            return Combinators.combine(Arbitraries.just(h), needle,
                    Arbitraries.integers().between(-3, h.length() + 3)).as(Tuple::of);
        });
    }
}
