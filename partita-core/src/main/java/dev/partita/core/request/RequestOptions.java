package dev.partita.core.request;

import dev.partita.core.partition.PartitionKeyValue;
import java.util.Objects;

/**
 * The typed options of one request to a container, immutable; {@link #NONE} and the {@code with...} methods build
 * them. The gateway decodes them from headers; in-process callers build them directly.
 *
 * @param partitionKey the logical partition of a point operation, batch or scoped query, or null
 * @param conditions   If-Match / If-None-Match
 * @param priority     throttled first when Low and the partition nears its budget
 * @param consistency  the level asked for (a quorum read costs double)
 * @param sessionToken the client's session token, or null (a single-region emulator is always caught up)
 * @param scope        where a query or feed runs; its range id also names the physical partition a point request
 *                     was sent to (410/1002 when it is gone)
 * @param continuation where a query or feed page resumes, or null
 * @param maxItemCount page size, or -1 for the service's default
 * @param access       what the caller may reach
 */
public record RequestOptions(PartitionKeyValue partitionKey, Conditions conditions, Priority priority,
        Consistency consistency, String sessionToken, Scope scope, String continuation, int maxItemCount,
        AccessScope access) {

    public static final RequestOptions NONE = new RequestOptions(null, Conditions.NONE, Priority.HIGH,
            Consistency.ACCOUNT_DEFAULT, null, Scope.CONTAINER, null, -1, AccessScope.UNRESTRICTED);

    public RequestOptions {
        conditions = Objects.requireNonNullElse(conditions, Conditions.NONE);
        priority = Objects.requireNonNullElse(priority, Priority.HIGH);
        consistency = Objects.requireNonNullElse(consistency, Consistency.ACCOUNT_DEFAULT);
        scope = Objects.requireNonNullElse(scope, Scope.CONTAINER);
        access = Objects.requireNonNullElse(access, AccessScope.UNRESTRICTED);
    }

    /** Options naming a partition key, everything else default. */
    public static RequestOptions of(PartitionKeyValue pk) {
        return NONE.withPartitionKey(pk);
    }

    /** Options for a query or feed over {@code scope}. */
    public static RequestOptions scoped(Scope scope) {
        return NONE.withScope(scope);
    }

    public RequestOptions withPartitionKey(PartitionKeyValue pk) {
        return new RequestOptions(pk, conditions, priority, consistency, sessionToken, scope, continuation,
                maxItemCount, access);
    }

    public RequestOptions withConditions(Conditions c) {
        return new RequestOptions(partitionKey, c, priority, consistency, sessionToken, scope, continuation,
                maxItemCount, access);
    }

    public RequestOptions withPriority(Priority p) {
        return new RequestOptions(partitionKey, conditions, p, consistency, sessionToken, scope, continuation,
                maxItemCount, access);
    }

    public RequestOptions withConsistency(Consistency c) {
        return new RequestOptions(partitionKey, conditions, priority, c, sessionToken, scope, continuation,
                maxItemCount, access);
    }

    public RequestOptions withSessionToken(String token) {
        return new RequestOptions(partitionKey, conditions, priority, consistency, token, scope, continuation,
                maxItemCount, access);
    }

    public RequestOptions withScope(Scope s) {
        return new RequestOptions(partitionKey, conditions, priority, consistency, sessionToken, s, continuation,
                maxItemCount, access);
    }

    public RequestOptions withContinuation(String token) {
        return new RequestOptions(partitionKey, conditions, priority, consistency, sessionToken, scope, token,
                maxItemCount, access);
    }

    public RequestOptions withMaxItemCount(int n) {
        return new RequestOptions(partitionKey, conditions, priority, consistency, sessionToken, scope, continuation,
                n, access);
    }

    public RequestOptions withAccess(AccessScope a) {
        return new RequestOptions(partitionKey, conditions, priority, consistency, sessionToken, scope, continuation,
                maxItemCount, a);
    }
}
