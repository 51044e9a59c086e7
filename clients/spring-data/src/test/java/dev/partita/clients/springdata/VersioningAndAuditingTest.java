package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.models.PartitionKey;
import com.azure.spring.data.cosmos.core.CosmosTemplate;
import com.azure.spring.data.cosmos.exception.CosmosAccessException;
import com.azure.spring.data.cosmos.exception.CosmosConflictException;
import com.azure.spring.data.cosmos.exception.CosmosPreconditionFailedException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

/** {@code @Version} as the item's etag (If-Match on save and delete), unique keys, and audit dates. */
@Import(VersioningAndAuditingTest.Clocks.class)
class VersioningAndAuditingTest extends PartitaSpringTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    @TestConfiguration
    static class Clocks {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(START);
        }
    }

    @Autowired
    AccountRepository accounts;

    @Autowired
    CosmosTemplate template;

    @Autowired
    MutableClock clock;

    @BeforeEach
    void empty() {
        accounts.deleteAll();
    }

    private static int status(Throwable e) {
        return ((CosmosAccessException) e).getCosmosException().getStatusCode();
    }

    /** A create without If-Match, so the tests below do not depend on how an upsert of a new item is answered. */
    private Account create(Account account) {
        return template.insert("accounts", account, new PartitionKey(account.getTenant()));
    }

    private Account read(String id, String tenant) {
        return accounts.findById(id, new PartitionKey(tenant)).orElseThrow();
    }

    @Test
    void savingANewVersionedAccountCreatesIt() {
        Account saved = accounts.save(new Account("a1", "t1", "ann@example.com", 10));
        assertThat(saved.getVersion()).isNotBlank();
        assertThat(read("a1", "t1").getVersion()).isEqualTo(saved.getVersion());
    }

    @Test
    void savingAllNewVersionedAccountsCreatesThem() {
        Iterable<Account> saved = accounts.saveAll(List.of(new Account("a1", "t1", "ann@example.com", 10),
                new Account("a2", "t2", "bob@example.com", 20)));
        assertThat(saved).hasSize(2).allSatisfy(a -> assertThat(a.getVersion()).isNotBlank());
        assertThat(accounts.count()).isEqualTo(2);
    }

    @Test
    void eachSaveGetsANewVersion() {
        Account created = create(new Account("a1", "t1", "ann@example.com", 10));
        assertThat(created.getVersion()).isNotBlank();
        created.setBalance(20);
        Account again = accounts.save(created);
        assertThat(again.getVersion()).isNotBlank().isNotEqualTo(created.getVersion());
        assertThat(read("a1", "t1").getBalance()).isEqualTo(20);
        assertThat(read("a1", "t1").getVersion()).isEqualTo(again.getVersion());
    }

    @Test
    void aStaleSaveFailsWith412AndLeavesTheWinner() {
        Account first = create(new Account("a1", "t1", "ann@example.com", 10));
        Account mine = read("a1", "t1");
        Account theirs = read("a1", "t1");
        assertThat(mine.getVersion()).isEqualTo(first.getVersion());
        theirs.setBalance(99);
        accounts.save(theirs);
        mine.setBalance(11);
        assertThatThrownBy(() -> accounts.save(mine))
                .isInstanceOf(CosmosPreconditionFailedException.class)
                .isInstanceOf(CosmosAccessException.class)
                .satisfies(e -> assertThat(status(e)).isEqualTo(412));
        assertThat(read("a1", "t1").getBalance()).isEqualTo(99);
    }

    @Test
    void aStaleDeleteFailsWith412() {
        Account mine = create(new Account("a1", "t1", "ann@example.com", 10));
        Account theirs = read("a1", "t1");
        theirs.setBalance(5);
        accounts.save(theirs);
        assertThatThrownBy(() -> accounts.delete(mine))
                .isInstanceOf(CosmosPreconditionFailedException.class)
                .satisfies(e -> assertThat(status(e)).isEqualTo(412));
        assertThat(accounts.existsById("a1")).isTrue();
        accounts.delete(read("a1", "t1"));
        assertThat(accounts.existsById("a1")).isFalse();
    }

    @Test
    void aCopyWithoutAVersionCannotOverwrite() {
        create(new Account("a1", "t1", "ann@example.com", 10));
        // no version: the framework still sends If-Match (null), which no stored etag matches
        assertThatThrownBy(() -> accounts.save(new Account("a1", "t1", "other@example.com", 0)))
                .isInstanceOf(CosmosPreconditionFailedException.class)
                .satisfies(e -> assertThat(status(e)).isEqualTo(412));
        assertThat(read("a1", "t1").getEmail()).isEqualTo("ann@example.com");
    }

    @Test
    void aTakenIdIsAConflictOnInsert() {
        create(new Account("a1", "t1", "ann@example.com", 10));
        assertThatThrownBy(() -> create(new Account("a1", "t1", "other@example.com", 0)))
                .isInstanceOf(CosmosConflictException.class)
                .satisfies(e -> assertThat(status(e)).isEqualTo(409));
    }

    @Test
    void theUniqueKeyHoldsWithinATenantOnly() {
        create(new Account("a1", "t1", "ann@example.com", 10));
        assertThatThrownBy(() -> create(new Account("a2", "t1", "ann@example.com", 0)))
                .isInstanceOf(CosmosConflictException.class)
                .satisfies(e -> assertThat(status(e)).isEqualTo(409));
        create(new Account("a3", "t2", "ann@example.com", 0));
        assertThat(accounts.findByEmail("ann@example.com")).extracting(Account::getId)
                .containsExactlyInAnyOrder("a1", "a3");
        assertThat(accounts.count()).isEqualTo(2);
    }

    @Test
    void theUniqueKeyHoldsOnAChangeToo() {
        create(new Account("a1", "t1", "ann@example.com", 10));
        create(new Account("a2", "t1", "bob@example.com", 10));
        Account bob = read("a2", "t1");
        bob.setEmail("ann@example.com");
        assertThatThrownBy(() -> accounts.save(bob))
                .isInstanceOf(CosmosConflictException.class)
                .satisfies(e -> assertThat(status(e)).isEqualTo(409));
    }

    @Test
    void auditDatesAreStampedOnCreateAndOnEachChange() {
        Account created = create(new Account("a1", "t1", "ann@example.com", 10));
        OffsetDateTime start = OffsetDateTime.ofInstant(START, ZoneOffset.UTC);
        assertThat(created.getCreatedAt()).isAtSameInstantAs(start);
        assertThat(created.getModifiedAt()).isAtSameInstantAs(start);

        clock.advance(Duration.ofMinutes(5));
        Account loaded = read("a1", "t1");
        assertThat(loaded.getCreatedAt()).isAtSameInstantAs(start);
        loaded.setBalance(20);
        accounts.save(loaded);

        Account changed = read("a1", "t1");
        assertThat(changed.getCreatedAt()).isAtSameInstantAs(start);
        assertThat(changed.getModifiedAt()).isAtSameInstantAs(start.plusMinutes(5));
    }
}
