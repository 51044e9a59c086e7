package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import java.util.Collection;
import java.util.List;

/**
 * The {@code unresolvedevents} container, reachable only through endpoint scopes: {@link #endpoint} for one endpoint,
 * {@link #endpoints} for a set. Every query the store builds is recorded in its {@link QueryLog}.
 *
 * <p>Priority: reads, searches and purges are sent at low priority; the resolver's writes at high, so that when an
 * endpoint's partition runs out of request units the interactive and background work yields first.
 */
public final class TrackingStore {
    public static final String CONTAINER = "unresolvedevents";
    public static final int AUTOSCALE_MAX_RUS = 4_000;

    private final CosmosContainer container;
    private final QueryLog log;

    public TrackingStore(CosmosContainer container, QueryLog log) {
        this.container = Priority.groups(container);
        this.log = log;
    }

    /** Creates the container as the record specifies: key [/endpointId, /id], TTL on, autoscale up to 4,000 RU/s. */
    public static CosmosContainer create(CosmosDatabase database) {
        return create(database, ThroughputProperties.createAutoscaledThroughput(AUTOSCALE_MAX_RUS));
    }

    /** The same container with other throughput (tests and simulations). */
    public static CosmosContainer create(CosmosDatabase database, ThroughputProperties throughput) {
        PartitionKeyDefinition key = new PartitionKeyDefinition();
        key.setPaths(List.of("/endpointId", "/id"));
        key.setKind(PartitionKind.MULTI_HASH);
        key.setVersion(PartitionKeyDefinitionVersion.V2);
        CosmosContainerProperties properties = new CosmosContainerProperties(CONTAINER, key);
        properties.setDefaultTimeToLiveInSeconds(-1);
        try {
            database.createContainer(properties, throughput);
        } catch (CosmosException e) {
            if (e.getStatusCode() != 409) {
                throw e;
            }
        }
        return database.getContainer(CONTAINER);
    }

    /** The scope of one endpoint: point operations with its full key, queries that start with its equality filter. */
    public EndpointScope endpoint(String endpointId) {
        return new EndpointScope(this, endpointId);
    }

    /** The scope of a set of endpoints: one query for the cross-endpoint search and one for its histogram. */
    public EndpointSetScope endpoints(Collection<String> endpointIds) {
        return new EndpointSetScope(this, List.copyOf(endpointIds));
    }

    CosmosContainer container() {
        return container;
    }

    /** Runs one page of a query at low priority, after recording its text. */
    <T> Page<T> page(SqlQuerySpec query, Class<T> type, int pageSize, String continuation) {
        log.add(query.getQueryText());
        CosmosQueryRequestOptions options = Priority.lowQuery();
        for (FeedResponse<T> page : container.queryItems(query, options, type)
                .iterableByPage(continuation, pageSize)) {
            return new Page<>(page.getResults(), page.getContinuationToken());
        }
        return new Page<>(List.of(), null);
    }

    /** Every row of a query at low priority (for aggregates, which the SDK answers in one logical result). */
    <T> List<T> all(SqlQuerySpec query, Class<T> type) {
        log.add(query.getQueryText());
        CosmosQueryRequestOptions options = Priority.lowQuery();
        return container.queryItems(query, options, type).stream().toList();
    }
}
