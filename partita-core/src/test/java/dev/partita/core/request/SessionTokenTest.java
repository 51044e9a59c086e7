package dev.partita.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PhysicalPartition;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTokenTest {
    static final List<PhysicalPartition> CHILD = List.of(new PhysicalPartition("3", "", "FF", List.of("0", "1")));

    static void ahead(String header) {
        assertThatThrownBy(() -> SessionToken.requireCaughtUp(header, CHILD, 10))
                .isInstanceOfSatisfying(ServiceException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.subStatus()).isEqualTo(1002);
                });
    }

    static void servable(String header) {
        assertThatCode(() -> SessionToken.requireCaughtUp(header, CHILD, 10)).doesNotThrowAnyException();
    }

    @Test
    void aTokenAtOrBelowTheCommittedLsnIsServed() {
        servable(null);
        servable("");
        servable(SessionToken.of("3", 10));
        servable("3:-1#9,1:10");
    }

    @Test
    void aTokenPastTheCommittedLsnIs404With1002InEveryForm() {
        ahead(SessionToken.of("3", 11));
        ahead("3:11"); // the simple form
        ahead("3:2#11#1=11#2=4"); // a vector with region progress
        ahead("7:-1#3,3:-1#12");
    }

    @Test
    void aParentsTokenCountsForItsChildAndOtherRangesAreIgnored() {
        ahead("1:-1#11"); // the client still holds the token of the range that split
        servable("555:-1#99"); // a range this read does not touch: the read falls back to eventual
    }

    @Test
    void aPairThatIsNoTokenIs400() {
        for (String bad : List.of("garbage", "3:", "3:x#1", "3:-1#1#region", ":-1#1", "3:-1:#1")) {
            assertThatThrownBy(() -> SessionToken.requireCaughtUp(bad, CHILD, 10))
                    .isInstanceOfSatisfying(ServiceException.class, e ->
                            assertThat(e.status()).isEqualTo(400))
                    .hasMessageContaining("The session token provided");
        }
    }
}
