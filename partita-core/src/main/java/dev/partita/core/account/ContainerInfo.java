package dev.partita.core.account;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.index.ContainerSearch;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.partition.PartitionKeyDefinition;
import dev.partita.core.partition.PartitionMap;
import java.util.List;

/**
 * A container as the catalog keeps it. Immutable: a replace or split publishes a new value.
 *
 * @param properties  the container body as stored (user-settable properties with defaults filled in, no system
 *                    properties)
 * @param defaultTtl  {@code null} when TTL is off, -1 when on without a default, else seconds
 * @param partitions  the physical partitions (partition key ranges)
 * @param nextRangeId the id the next split child gets
 * @param indexingPolicy the {@code indexingPolicy} property, parsed
 */
public record ContainerInfo(
        String databaseId,
        String id,
        int containerId,
        String databaseRid,
        String rid,
        ObjectNode properties,
        PartitionKeyDefinition partitionKey,
        Integer defaultTtl,
        List<UniqueKey> uniqueKeys,
        PartitionMap partitions,
        int nextRangeId,
        long ts,
        String etag,
        Throughput throughput,
        IndexingPolicy indexingPolicy) {

    public String selfLink() {
        return "dbs/" + databaseRid + "/colls/" + rid + "/";
    }

    /** The name-based link, e.g. {@code dbs/db1/colls/c1}. */
    public String altLink() {
        return "dbs/" + databaseId + "/colls/" + id;
    }

    /** The vector and full-text policies, parsed from the properties. */
    public ContainerSearch search() {
        return ContainerSearch.of(properties);
    }

    public boolean ttlEnabled() {
        return defaultTtl != null;
    }

    /** The resource as the service returns it. */
    public ObjectNode toJson() {
        ObjectNode o = properties.deepCopy();
        o.put("_rid", rid);
        o.put("_ts", ts);
        o.put("_self", selfLink());
        o.put("_etag", etag);
        o.put("_docs", "docs/");
        o.put("_sprocs", "sprocs/");
        o.put("_triggers", "triggers/");
        o.put("_udfs", "udfs/");
        o.put("_conflicts", "conflicts/");
        return o;
    }

    ContainerInfo withPartitions(PartitionMap map, int nextId) {
        return new ContainerInfo(databaseId, id, containerId, databaseRid, rid, properties, partitionKey, defaultTtl,
                uniqueKeys, map, nextId, ts, etag, throughput, indexingPolicy);
    }
}
