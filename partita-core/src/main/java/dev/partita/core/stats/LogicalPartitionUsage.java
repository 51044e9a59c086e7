package dev.partita.core.stats;

/**
 * A logical partition: its key, where it lives, what it consumed and how much it stores. The key is a partition key
 * VALUE: whoever shows it must hold the account key.
 *
 * @param rangeId      the physical partition that holds it
 * @param epk          its effective partition key
 * @param partitionKey the partition key value in its header form ({@code ["a"]}), or null when it is not known
 * @param ru           request units over the last one to two minutes (0 in the by-size list when unknown)
 * @param bytes        bytes stored
 */
public record LogicalPartitionUsage(String rangeId, String epk, String partitionKey, double ru, long bytes) {
}
