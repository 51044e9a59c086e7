package dev.partita.cli.migrate;

import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The checkpoint container ({@code /id}-keyed, in the target's database by default): one checkpoint document per
 * migration id and, once cut over, one cutover marker. Written at normal priority: it is tiny, and a throttled
 * checkpoint would only make a crash cost more re-copying.
 */
final class CheckpointStore {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final int NOT_FOUND = 404;

    private final CosmosAsyncContainer container;

    CheckpointStore(CosmosAsyncContainer container) {
        this.container = container;
    }

    Optional<Checkpoint> load(String migrationId) {
        return read(migrationId, Checkpoint.class);
    }

    /** @return the request charge, which the migration counts against its budget */
    double save(Checkpoint checkpoint) {
        return write(checkpoint.id(), checkpoint);
    }

    Optional<CutoverMarker> cutover(String migrationId) {
        return read(CutoverMarker.idFor(migrationId), CutoverMarker.class);
    }

    void writeCutover(CutoverMarker marker) {
        write(marker.id(), marker);
    }

    private double write(String id, Object document) {
        ObjectNode json = MAPPER.valueToTree(document);
        return container.upsertItem(json, new PartitionKey(id), new CosmosItemRequestOptions()).block()
                .getRequestCharge();
    }

    private <T> Optional<T> read(String id, Class<T> type) {
        try {
            ObjectNode json = container.readItem(id, new PartitionKey(id), ObjectNode.class).block().getItem();
            return Optional.of(MAPPER.convertValue(json, type));
        } catch (CosmosException e) {
            if (e.getStatusCode() == NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
