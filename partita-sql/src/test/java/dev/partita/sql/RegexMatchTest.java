package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RegexMatch runs on a linear-time engine: patterns that backtrack catastrophically in a backtracking engine answer at
 * once. The service documents PCRE with the modifiers i, x, m and s; constructs a linear-time engine cannot run
 * (backreferences, lookaround, atomic groups, possessive quantifiers) are undefined, as for an invalid pattern.
 */
class RegexMatchTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void catastrophicPatternsAnswerInWellUnderASecond() {
        String[] queries = {
            "SELECT VALUE RegexMatch('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', '((a+)+)+$')",
            "SELECT VALUE RegexMatch('" + "a".repeat(5_000) + "!', '(a|aa)+$')",
            "SELECT VALUE RegexMatch('" + "a".repeat(5_000) + "', '(.*a){20}b')",
            "SELECT VALUE RegexMatch('" + "ab".repeat(2_000) + "', '^(\\\\w+\\\\s?)*$', 'i')",
        };
        String[] expected = {"[false]", "[false]", "[false]", "[true]"};
        // a backtracking engine takes years on these; the timeout above is the hang detector, the speed a benchmark's
        for (int i = 0; i < queries.length; i++) {
            assertThat(run(queries[i])).isEqualTo(expected[i]);
        }
    }

    /** Counted repeats nested inside each other would expand to a billion states: undefined, at once. */
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void patternsThatExpandPastTheSizeBoundAreUndefinedAtOnce() {
        assertThat(run("SELECT VALUE RegexMatch('aaa', '((a{1000}){1000}){1000}')")).isEqualTo("[]");
        assertThat(run("SELECT VALUE RegexMatch('aaa', '(((((a{10}){10}){10}){10}){10})')")).isEqualTo("[]");
        assertThat(run("SELECT VALUE RegexMatch('" + "a".repeat(100) + "', '^(a{10}){10}$')")).isEqualTo("[true]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // backreferences, lookaround, atomic groups, possessive quantifiers, \\Z: undefined, like an invalid pattern
        "`RegexMatch('aa', '(a)\\\\1')`           | []",
        "`RegexMatch('ab', 'a(?=b)')`             | []",
        "`RegexMatch('ab', '(?<!b)a')`            | []",
        "`RegexMatch('ab', '(?>a)b')`             | []",
        "`RegexMatch('aa', 'a++')`                | []",
        "`RegexMatch('a', '(')`                   | []",
        "`RegexMatch('a', 'a', 'q')`              | []",
        // the four modifiers
        "`RegexMatch('ABC', 'abc', 'i')`          | [true]",
        "`RegexMatch('ÉCOLE', 'école', 'i')`      | [true]",
        "`RegexMatch('a\\nb', '^b$')`             | [false]",
        "`RegexMatch('a\\nb', '^b$', 'm')`        | [true]",
        "`RegexMatch('a\\nb', 'a.b')`             | [false]",
        "`RegexMatch('a\\nb', 'a.b', 's')`        | [true]",
        "`RegexMatch('a\\r\\nb', 'a..b', 's')`    | [true]",
        "`RegexMatch('abcd', 'ab c', 'x')`        | [true]",
        "`RegexMatch('abcd', 'aB c', 'ix')`       | [true]",
        "`RegexMatch('a b', 'a[ ]b', 'x')`        | [true]",
        "`RegexMatch('a b', 'a\\\\ b', 'x')`      | [true]",
        "`RegexMatch('ab', 'a # a comment\\n b', 'x')` | [true]",
        "`RegexMatch('a#b', 'a\\\\#b', 'x')`      | [true]",
        "`RegexMatch('a b', 'a\\\\Q b\\\\E', 'x')` | [true]",
        "`RegexMatch('ab', 'a b', 'X')`           | []",
        // named groups, classes, Unicode properties
        "`RegexMatch('ab', '(?<n>a)b')`           | [true]",
        "`RegexMatch('x9', '[[:digit:]]')`        | [true]",
        "`RegexMatch('αβ', '\\\\p{Greek}+')`      | [true]",
    })
    void syntaxAndModifiers(String call, String expected) {
        assertThat(run("SELECT VALUE " + call)).as(call).isEqualTo(expected);
    }
}
