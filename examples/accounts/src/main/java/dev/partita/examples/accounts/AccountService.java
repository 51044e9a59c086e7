package dev.partita.examples.accounts;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * Register, sign in, "who am I", password change and delete over {@link UserStore}: the small Java equivalent of the
 * ASP.NET Identity user store of the record (seed 001). Every path is point reads and writes; none queries.
 */
public final class AccountService {
    public static final int MAX_FAILED_ATTEMPTS = 5;
    public static final Duration LOCKOUT = Duration.ofMinutes(5);
    /** How long a claim may stand without its account before a lookup treats it as abandoned. */
    public static final Duration ORPHAN_AGE = Duration.ofMinutes(1);
    private static final int CONCURRENCY_RETRIES = 3;

    /** The outcome of a sign-in; an unknown address and a wrong password look the same from outside. */
    public enum SignInStatus { SUCCESS, FAILED, LOCKED_OUT }

    public record SignIn(SignInStatus status, Account account) {
    }

    private final UserStore store;
    private final PasswordHasher hasher;
    private final ClaimIds claimIds;
    private final Clock clock;

    public AccountService(UserStore store, PasswordHasher hasher, ClaimIds claimIds, Clock clock) {
        this.store = store;
        this.hasher = hasher;
        this.claimIds = claimIds;
        this.clock = clock;
    }

    /**
     * The claim first, the account second: a 409 on the claim means the address is taken. If the account write
     * fails, the claim is removed again, so a failed registration leaves nothing behind.
     */
    public Account register(String email, String password) {
        String normalized = EmailClaim.normalize(email);
        String id = UUID.randomUUID().toString();
        EmailClaim claim = new EmailClaim(claimIds.idFor(email), id, null);
        if (!store.createClaim(claim) && !(freeIfOrphaned(claim.id()) && store.createClaim(claim))) {
            throw new DuplicateEmailException();
        }
        Account account = new Account(id, email, normalized, email, normalized, false, hasher.hash(password),
                UUID.randomUUID().toString(), null, true, 0, clock.millis(), null);
        try {
            return store.createAccount(account);
        } catch (RuntimeException e) {
            store.deleteClaim(claim.id());
            throw e;
        }
    }

    /** Two point reads: the claim by address, then the account by the id it carries. */
    public Optional<Account> findByEmail(String email) {
        String claimId = claimIds.idFor(email);
        Optional<EmailClaim> claim = store.readClaim(claimId);
        if (claim.isEmpty()) {
            return Optional.empty();
        }
        Optional<Account> account = store.readAccount(claim.get().userId());
        if (account.isEmpty() && isOrphan(claim.get())) {
            store.deleteClaim(claimId);
        }
        return account;
    }

    public SignIn signIn(String email, String password) {
        for (int attempt = 0; ; attempt++) {
            Optional<Account> found = findByEmail(email);
            if (found.isEmpty()) {
                return new SignIn(SignInStatus.FAILED, null);
            }
            Account account = found.get();
            long now = clock.millis();
            if (account.lockoutEnd() != null && account.lockoutEnd() > now) {
                return new SignIn(SignInStatus.LOCKED_OUT, null);
            }
            try {
                if (hasher.verify(password, account.passwordHash())) {
                    boolean clean = account.accessFailedCount() == 0 && account.lockoutEnd() == null;
                    // a clean sign-in writes nothing: two point reads, about two request units
                    return new SignIn(SignInStatus.SUCCESS,
                            clean ? account : store.replaceAccount(account.withFailures(0, null)));
                }
                int failures = account.accessFailedCount() + 1;
                store.replaceAccount(failures >= MAX_FAILED_ATTEMPTS
                        ? account.withFailures(0, now + LOCKOUT.toMillis())
                        : account.withFailures(failures, null));
                return new SignIn(SignInStatus.FAILED, null);
            } catch (ConcurrencyFailureException e) {
                if (attempt >= CONCURRENCY_RETRIES) {
                    throw e;
                }
            }
        }
    }

    /** One point read by id. */
    public Optional<Account> whoAmI(String accountId) {
        return store.readAccount(accountId);
    }

    /** A replace with If-Match on the etag the account was read with; a concurrent change fails with 412. */
    public Account changePassword(Account asRead, String newPassword) {
        return store.replaceAccount(asRead.withPassword(hasher.hash(newPassword), UUID.randomUUID().toString()));
    }

    /** Removes the account and then its claim, which frees the address. */
    public void delete(String accountId) {
        Optional<Account> account = store.readAccount(accountId);
        if (account.isPresent()) {
            store.deleteAccount(accountId);
            store.deleteClaim(claimIds.idFor(account.get().normalizedEmail()));
        }
    }

    /** True when the claim has no account and is old enough to be a registration that died; then it is removed. */
    private boolean freeIfOrphaned(String claimId) {
        Optional<EmailClaim> claim = store.readClaim(claimId);
        if (claim.isEmpty()) {
            return true;
        }
        if (store.readAccount(claim.get().userId()).isPresent() || !isOrphan(claim.get())) {
            return false;
        }
        store.deleteClaim(claimId);
        return true;
    }

    private boolean isOrphan(EmailClaim claim) {
        return claim.timestamp() != null
                && clock.instant().getEpochSecond() - claim.timestamp() > ORPHAN_AGE.toSeconds();
    }
}
