package dev.partita.core.partition;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.limits.Limits;

/** Whether a partition key fits a container: the number of values its definition takes, and the size limits. */
final class PartitionKeyRules {

    private PartitionKeyRules() {
    }

    /**
     * Checks a key against a container's definition.
     * <ul>
     *   <li>{@code requireFull} (point operations, writes): one component per path; {@link PartitionKeyValue#EMPTY} only for a
     *       container without paths or with a system key;</li>
     *   <li>otherwise (queries, feeds): 1 to {@code levels} components, and fewer than {@code levels} only for a
     *       MultiHash key;</li>
     *   <li>size: the sum of the component sizes (UTF-8 bytes of a string, 8 for a number, 1 otherwise) must not exceed
     *       {@link Limits#maxPartitionKeyBytesV2()}, for every hash version: a V1 container accepts a longer key than
     *       it hashes (the SDKs' client-side encryption stores ~130-byte encrypted keys in V1 containers).</li>
     * </ul>
     *
     * @throws ServiceException 400 (sub-status 1001 for a wrong number of components) naming the problem, never the
     *                          value
     */
    static void check(PartitionKeyValue key, PartitionKeyDefinition def, Limits limits, boolean requireFull) {
        int n = key.size();
        int levels = def.levels();
        if (n == 0) {
            if (levels == 0 || def.systemKey()) {
                return;
            }
            throw mismatch(FEWER + " The key is empty but the container is partitioned by " + paths(levels)
                    + "; send one value per path, or [{}] for items without the property.");
        }
        if (n > levels) {
            throw mismatch(MORE + " The key has " + n + " values but the container is partitioned by "
                    + paths(levels) + "; send one value per path.");
        }
        if (n < levels) {
            if (requireFull) {
                // a prefix of a hierarchical key where a full key is needed has the service's words of its own (the
                // Java SDK's CosmosMultiHashTest.validateDocCRUDAndQuery)
                throw mismatch((def.kind() == PartitionKind.MULTI_HASH ? PARTIAL : FEWER) + " The key has " + n
                        + " values but the container is partitioned by " + paths(levels)
                        + "; this operation needs a value for every path.");
            }
            if (def.kind() != PartitionKind.MULTI_HASH) {
                throw mismatch(FEWER + " The key has " + n + " values but the container is partitioned by "
                        + paths(levels) + "; only hierarchical (MultiHash) keys accept a prefix.");
            }
        }
        int max = limits.maxPartitionKeyBytesV2();
        long size = key.encodedSize();
        if (size > max) {
            throw ServiceException.badRequest("The partition key is " + size + " bytes, more than the " + max
                    + " bytes a partition key may have; use a shorter partition key value.");
        }
    }

    /** The service's words for a key header with too few or too many values (its "the the" included). */
    private static final String FEWER = "The partition key supplied in x-ms-partitionkey header has fewer components"
            + " than defined in the the collection.";
    private static final String PARTIAL = "Partition key provided either doesn't correspond to definition in the"
            + " collection or doesn't match partition key field values specified in the document.";
    private static final String MORE = "The partition key supplied in x-ms-partitionkey header has more components"
            + " than defined in the the collection.";

    private static ServiceException mismatch(String message) {
        return ServiceException.badRequest(SubStatus.PARTITION_KEY_MISMATCH, message);
    }

    private static String paths(int levels) {
        return levels == 1 ? "1 path" : levels + " paths";
    }

}
