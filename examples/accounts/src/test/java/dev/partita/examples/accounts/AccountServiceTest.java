package dev.partita.examples.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.examples.accounts.AccountService.SignInStatus;
import dev.partita.junit.PartitaTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The account service of seed 001 through the official SDK against an in-process Partita. */
@PartitaTest
class AccountServiceTest {
    private static final String EMAIL = "Alice.Example@Example.com";
    private static final String PASSWORD = "correct horse battery staple";

    private CosmosContainer users;
    private final OperationLog log = new OperationLog();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
    private final Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final ClaimIds claimIds = new ClaimIds(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
    private AccountService accounts;

    @BeforeEach
    void setUp(CosmosClient client) {
        client.createDatabaseIfNotExists("app");
        String name = "users-" + UUID.randomUUID().toString().substring(0, 8);
        client.getDatabase("app").createContainer(new CosmosContainerProperties(name, "/id"));
        users = client.getDatabase("app").getContainer(name);
        accounts = new AccountService(new UserStore(users, log), new PasswordHasher(1_000), claimIds, clock);
    }

    @Test
    void aSecondRegistrationOfTheAddressIsRefusedWhateverItsCase() {
        accounts.register(EMAIL, PASSWORD);
        assertThatThrownBy(() -> accounts.register(EMAIL.toLowerCase(), "another password"))
                .isInstanceOf(DuplicateEmailException.class);
        assertThat(accountsWithAddress()).isEqualTo(1);
    }

    @Test
    void fiftyConcurrentRegistrationsOfOneAddressMakeExactlyOneAccount() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(50);
        List<Callable<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            attempts.add(() -> {
                try {
                    accounts.register(EMAIL, PASSWORD);
                    return true;
                } catch (DuplicateEmailException e) {
                    return false;
                }
            });
        }
        int succeeded = 0;
        for (Future<Boolean> f : pool.invokeAll(attempts)) {
            succeeded += f.get() ? 1 : 0;
        }
        pool.shutdown();
        assertThat(succeeded).isEqualTo(1);
        assertThat(accountsWithAddress()).isEqualTo(1);
    }

    @Test
    void aCleanSignInIsTwoPointReadsAndWritesNothing() {
        accounts.register(EMAIL, PASSWORD);
        log.clear();
        assertThat(accounts.signIn(EMAIL, PASSWORD).status()).isEqualTo(SignInStatus.SUCCESS);
        assertThat(log.entries()).extracting(OperationLog.Entry::operation)
                .containsExactly("ReadItem (email claim)", "ReadItem (account)");
    }

    @Test
    void fiveWrongPasswordsLockTheAccountForFiveMinutes() {
        accounts.register(EMAIL, PASSWORD);
        for (int i = 0; i < AccountService.MAX_FAILED_ATTEMPTS; i++) {
            assertThat(accounts.signIn(EMAIL, "wrong").status()).isEqualTo(SignInStatus.FAILED);
        }
        assertThat(accounts.signIn(EMAIL, PASSWORD).status()).isEqualTo(SignInStatus.LOCKED_OUT);
        now.set(now.get().plus(AccountService.LOCKOUT).minusSeconds(1));
        assertThat(accounts.signIn(EMAIL, PASSWORD).status()).isEqualTo(SignInStatus.LOCKED_OUT);
        now.set(now.get().plusSeconds(2));
        AccountService.SignIn ok = accounts.signIn(EMAIL, PASSWORD);
        assertThat(ok.status()).isEqualTo(SignInStatus.SUCCESS);
        assertThat(ok.account().accessFailedCount()).isZero();
        assertThat(ok.account().lockoutEnd()).isNull();
    }

    @Test
    void aSuccessfulSignInAfterFailuresResetsTheCount() {
        Account a = accounts.register(EMAIL, PASSWORD);
        accounts.signIn(EMAIL, "wrong");
        accounts.signIn(EMAIL, "wrong");
        assertThat(accounts.whoAmI(a.id()).orElseThrow().accessFailedCount()).isEqualTo(2);
        accounts.signIn(EMAIL, PASSWORD);
        assertThat(accounts.whoAmI(a.id()).orElseThrow().accessFailedCount()).isZero();
    }

    @Test
    void anUpdateFromAStaleReadIsAConcurrencyFailure() {
        Account registered = accounts.register(EMAIL, PASSWORD);
        Account first = accounts.whoAmI(registered.id()).orElseThrow();
        Account second = accounts.whoAmI(registered.id()).orElseThrow();
        accounts.changePassword(first, "new password one");
        assertThatThrownBy(() -> accounts.changePassword(second, "new password two"))
                .isInstanceOf(ConcurrencyFailureException.class);
        assertThat(accounts.signIn(EMAIL, "new password one").status()).isEqualTo(SignInStatus.SUCCESS);
    }

    @Test
    void anOrphanedClaimIsFreedOnlyOnceItIsOlderThanAMinute() {
        // a registration that died between its two writes: the claim without its account
        String claimId = claimIds.idFor(EMAIL);
        users.createItem(Map.of("id", claimId, "user_id", "never-written"), new PartitionKey(claimId), null);
        assertThatThrownBy(() -> accounts.register(EMAIL, PASSWORD)).isInstanceOf(DuplicateEmailException.class);
        assertThat(accounts.signIn(EMAIL, PASSWORD).status()).isEqualTo(SignInStatus.FAILED);
        now.set(now.get().plus(AccountService.ORPHAN_AGE).plusSeconds(5));
        Account account = accounts.register(EMAIL, PASSWORD);
        assertThat(accounts.signIn(EMAIL, PASSWORD).account().id()).isEqualTo(account.id());
    }

    @Test
    void aLookupRemovesAnOldOrphanedClaim() {
        String claimId = claimIds.idFor(EMAIL);
        users.createItem(Map.of("id", claimId, "user_id", "never-written"), new PartitionKey(claimId), null);
        now.set(now.get().plus(Duration.ofMinutes(2)));
        assertThat(accounts.findByEmail(EMAIL)).isEmpty();
        assertThat(log.entries()).extracting(OperationLog.Entry::operation).contains("DeleteItem (email claim)");
    }

    @Test
    void deletingAnAccountFreesItsAddress() {
        Account a = accounts.register(EMAIL, PASSWORD);
        accounts.delete(a.id());
        assertThat(accounts.whoAmI(a.id())).isEmpty();
        assertThat(accounts.signIn(EMAIL, PASSWORD).status()).isEqualTo(SignInStatus.FAILED);
        assertThat(accounts.register(EMAIL, PASSWORD).id()).isNotEqualTo(a.id());
    }

    @Test
    void theServiceNeverQueriesAndNeverLeaksTheAddress() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        List<String> messages = new ArrayList<>();
        try {
            Account a = accounts.register(EMAIL, PASSWORD);
            try {
                accounts.register(EMAIL, PASSWORD);
            } catch (RuntimeException e) {
                messages.add(String.valueOf(e));
            }
            accounts.signIn(EMAIL, "wrong");
            accounts.signIn(EMAIL, PASSWORD);
            accounts.whoAmI(a.id());
            try {
                accounts.changePassword(a, "x");
                accounts.changePassword(a, "y");
            } catch (RuntimeException e) {
                messages.add(String.valueOf(e));
            }
            messages.add(String.valueOf(a));
            accounts.delete(a.id());
        } finally {
            System.setErr(original);
        }
        assertThat(log.entries()).isNotEmpty().allSatisfy(e -> assertThat(e.operation())
                .matches("(Create|Read|Replace|Delete)Item \\((account|email claim)\\)"));
        List<String> texts = new ArrayList<>(messages);
        texts.add(captured.toString(StandardCharsets.UTF_8));
        log.entries().forEach(e -> texts.add(e.diagnostics()));
        for (String text : texts) {
            assertThat(text.toUpperCase()).doesNotContain(EmailClaim.normalize(EMAIL));
        }
    }

    @Test
    void theReportMeasuresSignInAndWhoAmI(CosmosClient client) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AccountsReport.run(client, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("sign-in                    2")
                .contains("who am I                   1");
    }

    /** Counts, from the test's side (the service itself never queries), the accounts holding the address. */
    private long accountsWithAddress() {
        SqlQuerySpec q = new SqlQuerySpec("SELECT VALUE COUNT(1) FROM c WHERE c.normalized_email = @e",
                List.of(new SqlParameter("@e", EmailClaim.normalize(EMAIL))));
        return users.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class).iterator().next().asLong();
    }
}
