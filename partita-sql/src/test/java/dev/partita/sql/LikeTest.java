package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * LIKE runs on a linear-time engine: a pattern of many {@code %} against a string that almost matches it takes a
 * backtracking engine exponential time (one such query held a core for minutes and outlived its request), here it
 * answers at once. The semantics stay SQL's: {@code %} and {@code _} span line breaks, sets and ranges match one
 * character, an empty range matches nothing.
 */
class LikeTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void patternsThatBacktrackCatastrophicallyAnswerAtOnce() {
        String almost = "a".repeat(43) + "b";
        String manyWildcards = "%a".repeat(20) + "%c";
        // the timeout above is the hang detector; the speed is a benchmark's concern
        assertThat(run("SELECT VALUE '" + almost + "' LIKE '" + manyWildcards + "'")).isEqualTo("[false]");
        assertThat(run("SELECT VALUE '" + almost + "' LIKE '" + "%a".repeat(20) + "%b'")).isEqualTo("[true]");
        assertThat(run("SELECT VALUE '" + "a".repeat(5_000) + "' LIKE '" + "%_".repeat(200) + "%!'"))
                .isEqualTo("[false]");
        // a pattern that is not a constant goes through the evaluator's cache of compiled patterns
        assertThat(run("SELECT VALUE c.s LIKE c.p FROM c", "[{\"s\":\"" + almost + "\",\"p\":\"" + manyWildcards
                + "\"}]")).isEqualTo("[false]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`'a\\nb' LIKE 'a_b'`                 | [true]",
        "`'a\\r\\nb' LIKE 'a%b'`              | [true]",
        "`'a' LIKE '[z-a]'`                   | [false]",
        "`'a' NOT LIKE '[z-a]'`               | [true]",
        "`'-' LIKE '[a-]'`                    | [true]",
        "`'b' LIKE '[a-c]'`                   | [true]",
        "`'^' LIKE '[^]'`                     | [true]",
        "`'a&b' LIKE 'a&b'`                   | [true]",
        "`'a|b' LIKE 'a|_'`                   | [true]",
        "`'(x)' LIKE '(_)'`                   | [true]",
        "`'a{2}' LIKE 'a{2}'`                 | [true]",
        "`'aa' LIKE 'a{2}'`                   | [false]",
        "`'$1.5' LIKE '$1.5'`                 | [true]",
        "`'x]' LIKE 'x]'`                     | [true]",
        "`'[x' LIKE '[x'`                     | [true]",
        "`'50%' LIKE '50!%' ESCAPE '!'`       | [true]",
        "`'50x' LIKE '50!%' ESCAPE '!'`       | [false]",
    })
    void semantics(String expression, String expected) {
        assertThat(run("SELECT VALUE " + expression)).as(expression).isEqualTo(expected);
    }
}
