package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The legacy layout (one container per endpoint, keyed {@code /id}, named {@code prefix + endpointId}) and the
 * migration marker that records, per legacy container, the high-water mark ({@code _ts}) it was copied up to.
 * This class only ever reads legacy containers; the marker lives in a small container of its own.
 */
public final class LegacyLayout {
    public static final String META_CONTAINER = "trackingmeta";
    static final String MARKER_ID = "layout-migration";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where a legacy container stands. */
    public enum State { NOT_MIGRATED, WRITTEN_SINCE_MIGRATION, MIGRATED_SAFE_TO_DELETE }

    /** One legacy container in the listing. */
    public record Legacy(String container, String endpointId, State state) {
    }

    /** The marker's entry for one legacy container. */
    public record Mark(String endpointId, long highWaterTs, long rows) {
    }

    private final CosmosDatabase database;
    private final String prefix;
    private final CosmosContainer meta;

    public LegacyLayout(CosmosDatabase database, String prefix) {
        this.database = database;
        this.prefix = prefix;
        try {
            database.createContainer(new CosmosContainerProperties(META_CONTAINER, "/id"));
        } catch (CosmosException e) {
            if (e.getStatusCode() != 409) {
                throw e;
            }
        }
        this.meta = database.getContainer(META_CONTAINER);
    }

    /** The legacy containers that exist now, by name. */
    public List<String> legacyContainers() {
        List<String> out = new ArrayList<>();
        database.readAllContainers().forEach(p -> {
            if (p.getId().startsWith(prefix) && p.getId().length() > prefix.length()) {
                out.add(p.getId());
            }
        });
        return out;
    }

    public String endpointOf(String legacyContainer) {
        return legacyContainer.substring(prefix.length());
    }

    CosmosContainer legacy(String name) {
        return Priority.groups(database.getContainer(name));
    }

    /** The newest write in a legacy container ({@code _ts}, seconds), 0 when empty. */
    public long highWaterMark(String legacyContainer) {
        List<JsonNode> max = legacy(legacyContainer).queryItems("SELECT VALUE MAX(c._ts) FROM c",
                Priority.lowQuery(), JsonNode.class)
                .stream().toList();
        return max.isEmpty() || !max.get(0).isNumber() ? 0 : max.get(0).asLong();
    }

    /** The marker: legacy container name to its mark; empty when there is none (never migrated or rolled back). */
    public Map<String, Mark> marks() {
        Map<String, Mark> out = new LinkedHashMap<>();
        marker().ifPresent(m -> m.path("containers").properties().forEach(e -> out.put(e.getKey(),
                new Mark(e.getValue().path("endpointId").asText(), e.getValue().path("highWaterTs").asLong(),
                        e.getValue().path("rows").asLong()))));
        return out;
    }

    void recordMark(String legacyContainer, Mark mark) {
        ObjectNode doc = marker().orElseGet(() -> JSON.createObjectNode().put("id", MARKER_ID));
        ObjectNode entry = doc.with("containers").putObject(legacyContainer);
        entry.put("endpointId", mark.endpointId()).put("highWaterTs", mark.highWaterTs()).put("rows", mark.rows());
        meta.upsertItem(doc, new PartitionKey(MARKER_ID), new CosmosItemRequestOptions());
    }

    /** Rollback: forget the migration, which closes the layout guard again. */
    public void rollback() {
        try {
            meta.deleteItem(MARKER_ID, new PartitionKey(MARKER_ID), new CosmosItemRequestOptions());
        } catch (CosmosException e) {
            if (e.getStatusCode() != 404) {
                throw e;
            }
        }
    }

    /** Every legacy container and whether it may be deleted. */
    public List<Legacy> listing() {
        Map<String, Mark> marks = marks();
        List<Legacy> out = new ArrayList<>();
        for (String name : legacyContainers()) {
            Mark mark = marks.get(name);
            State state = mark == null ? State.NOT_MIGRATED
                    : highWaterMark(name) > mark.highWaterTs() ? State.WRITTEN_SINCE_MIGRATION
                    : State.MIGRATED_SAFE_TO_DELETE;
            out.add(new Legacy(name, endpointOf(name), state));
        }
        return out;
    }

    private Optional<ObjectNode> marker() {
        try {
            return Optional.of(meta.readItem(MARKER_ID, new PartitionKey(MARKER_ID), ObjectNode.class).getItem());
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
