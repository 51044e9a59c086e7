package dev.partita.examples.accounts;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDiagnostics;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code users} container, point operations only: every document's partition key is its id, so each call names
 * exactly one document and none is a query.
 */
public final class UserStore {
    private final CosmosContainer users;
    private final OperationLog log;

    public UserStore(CosmosContainer users, OperationLog log) {
        this.users = users;
        this.log = log;
    }

    /** False when the address is already claimed (409). */
    boolean createClaim(EmailClaim claim) {
        try {
            call("CreateItem (email claim)", () -> users.createItem(claim, new PartitionKey(claim.id()),
                    new CosmosItemRequestOptions()));
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 409) {
                return false;
            }
            throw e;
        }
    }

    Optional<EmailClaim> readClaim(String claimId) {
        return read("ReadItem (email claim)", claimId, EmailClaim.class);
    }

    void deleteClaim(String claimId) {
        try {
            call("DeleteItem (email claim)", () -> users.deleteItem(claimId, new PartitionKey(claimId),
                    new CosmosItemRequestOptions()));
        } catch (CosmosException e) {
            if (e.getStatusCode() != 404) {
                throw e;
            }
        }
    }

    Account createAccount(Account account) {
        CosmosItemResponse<Account> r = call("CreateItem (account)", () -> users.createItem(account,
                new PartitionKey(account.id()), new CosmosItemRequestOptions()));
        return account.withEtag(r.getETag());
    }

    Optional<Account> readAccount(String id) {
        return read("ReadItem (account)", id, Account.class);
    }

    /** Replaces the account if it still has the etag it was read with; a 412 is a concurrency failure. */
    Account replaceAccount(Account account) {
        try {
            CosmosItemResponse<Account> r = call("ReplaceItem (account)", () -> users.replaceItem(account,
                    account.id(), new PartitionKey(account.id()),
                    new CosmosItemRequestOptions().setIfMatchETag(account.etag())));
            return account.withEtag(r.getETag());
        } catch (CosmosException e) {
            if (e.getStatusCode() == 412) {
                throw new ConcurrencyFailureException();
            }
            throw e;
        }
    }

    void deleteAccount(String id) {
        call("DeleteItem (account)", () -> users.deleteItem(id, new PartitionKey(id), new CosmosItemRequestOptions()));
    }

    private <T> Optional<T> read(String operation, String id, Class<T> type) {
        try {
            return Optional.of(call(operation, () -> users.readItem(id, new PartitionKey(id), type)).getItem());
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private <T> CosmosItemResponse<T> call(String operation, Supplier<CosmosItemResponse<T>> request) {
        try {
            CosmosItemResponse<T> r = request.get();
            log.add(new OperationLog.Entry(operation, r.getStatusCode(), r.getRequestCharge(),
                    text(r.getDiagnostics())));
            return r;
        } catch (CosmosException e) {
            log.add(new OperationLog.Entry(operation, e.getStatusCode(), e.getRequestCharge(),
                    text(e.getDiagnostics())));
            throw e;
        }
    }

    private static String text(CosmosDiagnostics d) {
        return d == null ? "" : d.toString();
    }
}
