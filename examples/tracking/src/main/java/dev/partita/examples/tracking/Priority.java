package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PriorityLevel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Priority-based execution through the SDK: a request joins a server throughput-control group whose priority level
 * the SDK sends as {@code x-ms-cosmos-priority-level}. Reads, searches, purges and the migration are low; the
 * resolver's writes are high.
 */
final class Priority {
    static final String LOW = "tracking-low-priority";
    static final String HIGH = "tracking-high-priority";
    private static final Set<String> ENABLED = ConcurrentHashMap.newKeySet();

    private Priority() {
    }

    /** Declares both groups on a container (once per container). */
    static CosmosContainer groups(CosmosContainer container) {
        String key = System.identityHashCode(container) + "/" + container.getId();
        if (ENABLED.add(key)) {
            container.enableServerThroughputControlGroup(new ThroughputControlGroupConfigBuilder().groupName(LOW)
                    .priorityLevel(PriorityLevel.LOW).build());
            container.enableServerThroughputControlGroup(new ThroughputControlGroupConfigBuilder().groupName(HIGH)
                    .priorityLevel(PriorityLevel.HIGH).build());
        }
        return container;
    }

    static CosmosItemRequestOptions low() {
        CosmosItemRequestOptions options = new CosmosItemRequestOptions();
        options.setThroughputControlGroupName(LOW);
        return options;
    }

    static CosmosItemRequestOptions high() {
        CosmosItemRequestOptions options = new CosmosItemRequestOptions();
        options.setThroughputControlGroupName(HIGH);
        return options;
    }

    static CosmosQueryRequestOptions lowQuery() {
        return new CosmosQueryRequestOptions().setThroughputControlGroupName(LOW);
    }
}
