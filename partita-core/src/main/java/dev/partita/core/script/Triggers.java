package dev.partita.core.script;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.PartitionTxn;
import dev.partita.core.request.Conditions;
import java.util.ArrayList;
import java.util.List;

/**
 * The triggers a write names ({@code x-ms-documentdb-pre-trigger-include}, {@code ...-post-trigger-include}), by id
 * until {@link #resolve}d against the container: then each must exist, be of the side it was named for, and fire on
 * the write's operation (400 otherwise, as the service answers).
 *
 * @param preIds  pre-trigger ids in the order named
 * @param postIds post-trigger ids in the order named
 * @param pre     the resolved pre-triggers (empty until resolved)
 * @param post    the resolved post-triggers (empty until resolved)
 */
public record Triggers(List<String> preIds, List<String> postIds, List<ScriptResource> pre,
        List<ScriptResource> post) {

    /** The writes a trigger can wrap, with the operation names triggers are declared for. */
    public enum Operation {
        CREATE("Create"), UPSERT("Upsert"), REPLACE("Replace"), DELETE("Delete");

        private final String serviceName;

        Operation(String serviceName) {
            this.serviceName = serviceName;
        }

        public String serviceName() {
            return serviceName;
        }
    }

    /** From the two headers' comma-separated values (either may be null). */
    public static Triggers named(String preInclude, String postInclude) {
        return new Triggers(ids(preInclude), ids(postInclude), List.of(), List.of());
    }

    public boolean isEmpty() {
        return preIds.isEmpty() && postIds.isEmpty();
    }

    public Triggers resolve(ScriptCatalog catalog, ContainerInfo c, Operation operation) {
        return new Triggers(preIds, postIds, resolve(catalog, c, preIds, "Pre", operation),
                resolve(catalog, c, postIds, "Post", operation));
    }

    private static List<ScriptResource> resolve(ScriptCatalog catalog, ContainerInfo c, List<String> ids,
            String type, Operation operation) {
        List<ScriptResource> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            ScriptResource t = catalog.get(c, ScriptKind.TRIGGER, id);
            if (!t.triggerType().equals(type)) {
                throw ServiceException.badRequest("The trigger '" + id + "' is a " + t.triggerType().toLowerCase()
                        + "-trigger; it cannot be included as a " + type.toLowerCase() + "-trigger.");
            }
            if (!t.triggersOn(operation.serviceName())) {
                throw ServiceException.badRequest("The trigger '" + id + "' is declared for the operation "
                        + t.triggerOperation() + " and cannot run on a " + operation.serviceName() + " request.");
            }
            out.add(t);
        }
        return out;
    }

    /** Performs the write itself in the script's transaction. */
    public ItemResult write(PartitionTxn txn, Operation operation, String id, ObjectNode doc, Conditions conditions) {
        return switch (operation) {
            case CREATE -> txn.create(doc);
            case UPSERT -> txn.upsert(doc, conditions);
            case REPLACE -> txn.replace(id, doc, conditions);
            case DELETE -> txn.delete(id, conditions);
        };
    }

    private static List<String> ids(String header) {
        List<String> out = new ArrayList<>();
        if (header != null) {
            for (String s : header.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return List.copyOf(out);
    }
}
