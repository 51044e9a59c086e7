package dev.partita.server.route;

import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.ResourceNames;
import java.util.List;
import java.util.Set;

/**
 * A request path as resource types and ids: {@code dbs/{db}/colls/{c}/docs/{id}} and the like, name-based or
 * rid-based (the SDK's rule: rid-based when the second segment parses as a database {@code _rid}). Knows the resource
 * type segment and the resource link the SDK signs for the path (protocol.md §2.1).
 */
record ResourcePath(List<String> segments, boolean ridBased) {

    private static final Set<String> COLLECTION_CHILDREN = Set.of("docs", "pkranges", "sprocs", "triggers", "udfs",
            "conflicts");
    /** {@code /dbs/{db}/clientencryptionkeys[/{key}]}: a database's client encryption keys. */
    static final String CLIENT_ENCRYPTION_KEYS = "clientencryptionkeys";
    /** {@code .../colls/{c}/operations/partitionkeydelete}: an operation on the container, not a child resource. */
    private static final String OPERATIONS = "operations";
    private static final String PARTITION_KEY_DELETE = "partitionkeydelete";

    /** Parses the segments; 404 for a path that names no resource type Partita knows. */
    static ResourcePath of(List<String> segments) {
        int n = segments.size();
        if (n == 0) {
            return new ResourcePath(segments, false);
        }
        String root = segments.get(0);
        if (root.equals("offers") && n <= 2 || control(segments)) {
            return new ResourcePath(segments, false);
        }
        if (root.equals("offers")) {
            // e.g. /offers/offers/{rid}/: an SDK given an offer's _self where it wants its id. A client's own test
            // suite, run against the service, accepts only 400 or 401 here.
            throw ServiceException.badRequest("The request path is not a valid offer path: an offer is addressed "
                    + "as /offers/{offer id}, not by its _self.");
        }
        if (!root.equals("dbs") || n > 6) {
            throw unknown();
        }
        if (n >= 3) {
            String t2 = segments.get(2);
            if (!t2.equals("colls") && !t2.equals("users") && !(t2.equals(CLIENT_ENCRYPTION_KEYS) && n <= 4)) {
                throw unknown();
            }
            if (n >= 5) {
                String t4 = segments.get(4);
                boolean ok = t2.equals("colls")
                        ? COLLECTION_CHILDREN.contains(t4) || n == 6 && isPartitionKeyDelete(segments)
                        : t4.equals("permissions");
                if (!ok) {
                    throw unknown();
                }
                if (n == 6 && t4.equals("docs")) {
                    // the service answers an id it could never have stored with 400, whoever asks
                    ResourceNames.checkItemIdCharacters(segments.get(5));
                }
            }
        }
        return new ResourcePath(segments, n >= 2 && ResourceIds.isDatabaseRid(segments.get(1)));
    }

    /** Partita's own control API ({@code /_partita/faults}): not a Cosmos DB resource, signed as the account. */
    static boolean control(List<String> segments) {
        return segments.size() == 2 && segments.get(0).equals("_partita") && segments.get(1).equals("faults");
    }

    private static boolean isPartitionKeyDelete(List<String> segments) {
        return segments.get(4).equals(OPERATIONS) && segments.get(5).equals(PARTITION_KEY_DELETE);
    }

    /** The delete of a partition key's items ({@code .../colls/{c}/operations/partitionkeydelete}). */
    boolean partitionKeyDelete() {
        return segments.size() == 6 && segments.get(2).equals("colls") && isPartitionKeyDelete(segments);
    }

    private static ServiceException unknown() {
        return ServiceException.notFound("The request path does not name a resource. Paths look like /dbs/{db},"
                + " /dbs/{db}/colls/{container}, /dbs/{db}/colls/{container}/docs/{id}, /dbs/{db}/users/{user},"
                + " /dbs/{db}/clientencryptionkeys/{key} or /offers/{id}.");
    }

    int size() {
        return segments.size();
    }

    String seg(int i) {
        return segments.get(i);
    }

    /** The resource type segment the request is signed with ({@code ""} for the account). */
    String authType() {
        int n = segments.size();
        if (n == 0 || control(segments)) {
            return "";
        }
        if (partitionKeyDelete()) {
            // the SDKs sign it as a request on the container (protocol.md §2.1)
            return "colls";
        }
        return n % 2 == 1 ? segments.get(n - 1) : segments.get(n - 2);
    }

    /**
     * The resource link the request is signed with: name-based, the path of the resource (its parent's path for feeds,
     * creates and queries); rid-based, the rid of the resource (of its owner for feeds). Offers sign their rid.
     */
    String authLink() {
        int n = partitionKeyDelete() ? 4 : segments.size();
        if (n <= 1 || control(segments)) {
            return "";
        }
        if (segments.get(0).equals("offers")) {
            return segments.get(1);
        }
        if (ridBased) {
            return n % 2 == 1 ? segments.get(n - 2) : segments.get(n - 1);
        }
        return String.join("/", segments.subList(0, n % 2 == 1 ? n - 1 : n));
    }
}
