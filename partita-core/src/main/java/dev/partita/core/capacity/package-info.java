/**
 * Capacity: {@link dev.partita.core.capacity.Limits} (every service limit, one place), and, with the capacity
 * issue, the RU cost model, provisioned throughput, per-partition budgets, burst and priority.
 */
package dev.partita.core.capacity;
