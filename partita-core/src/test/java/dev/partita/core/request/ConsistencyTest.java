package dev.partita.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.error.ServiceException;
import org.junit.jupiter.api.Test;

/** What a request may ask for under its account's default level (the Java SDK's rule), and the header's values. */
class ConsistencyTest {
    @Test
    void aRequestMayRelaxItsAccountsLevelButNotStrengthenIt() {
        for (Consistency account : new Consistency[] {Consistency.SESSION, Consistency.CONSISTENT_PREFIX,
                Consistency.EVENTUAL}) {
            for (Consistency asked : new Consistency[] {Consistency.SESSION, Consistency.CONSISTENT_PREFIX,
                    Consistency.EVENTUAL}) {
                assertThat(asked.under(account)).isEqualTo(asked);
            }
            for (Consistency stronger : new Consistency[] {Consistency.STRONG, Consistency.BOUNDED_STALENESS}) {
                assertThatThrownBy(() -> stronger.under(account)).isInstanceOfSatisfying(ServiceException.class,
                        e -> {
                            assertThat(e.status()).isEqualTo(400);
                            assertThat(e.getMessage()).startsWith("ConsistencyLevel " + stronger.wireName()
                                    + " specified in the request is invalid when service is configured with"
                                    + " consistency level " + account.wireName() + ".");
                        });
            }
        }
        assertThat(Consistency.BOUNDED_STALENESS.under(Consistency.BOUNDED_STALENESS).readsQuorum()).isTrue();
        assertThat(Consistency.BOUNDED_STALENESS.under(Consistency.STRONG).readsQuorum()).isTrue();
        assertThatThrownBy(() -> Consistency.STRONG.under(Consistency.BOUNDED_STALENESS))
                .isInstanceOf(ServiceException.class);
        assertThat(Consistency.ACCOUNT_DEFAULT.under(Consistency.STRONG)).isEqualTo(Consistency.STRONG);
        assertThat(Consistency.ACCOUNT_DEFAULT.under(Consistency.SESSION).readsQuorum()).isFalse();
    }

    @Test
    void theHeaderTakesTheServicesNamesInAnyCaseAndRefusesOthers() {
        assertThat(Consistency.fromHeader(null)).isEqualTo(Consistency.ACCOUNT_DEFAULT);
        assertThat(Consistency.fromHeader("boundedstaleness")).isEqualTo(Consistency.BOUNDED_STALENESS);
        assertThat(Consistency.fromHeader(" Eventual ")).isEqualTo(Consistency.EVENTUAL);
        assertThat(Consistency.fromHeader("ConsistentPrefix")).isEqualTo(Consistency.CONSISTENT_PREFIX);
        for (String bad : new String[] {"Bogus", "Bounded Staleness", "STRONG!", "1"}) {
            assertThatThrownBy(() -> Consistency.fromHeader(bad)).isInstanceOfSatisfying(ServiceException.class,
                    e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).contains("x-ms-consistency-level");
                    });
        }
    }
}
