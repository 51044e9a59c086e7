/**
 * The SDK query plan: {@link dev.partita.sql.plan.QueryPlanner} turns a parsed query, the container's partition key
 * paths and the request parameters into a {@link dev.partita.sql.plan.QueryPlan} — the {@code queryInfo} that tells
 * the SDK which client-side pipeline to build (ORDER BY merge, aggregates, GROUP BY, DISTINCT, TOP, OFFSET/LIMIT,
 * DCOUNT), the rewritten text every range runs (in the real planner's format, and always executable by this
 * module's own evaluator with exactly the row shapes the SDK merges), and the partition-key values the WHERE clause
 * pins. The contract is shared/docs/query-plans.md. Also here: the analyses the engine's index and routing use on a
 * parsed filter — the sargable predicates an index can answer ({@link dev.partita.sql.plan.IndexPredicates}), the
 * range of a sort key a filter leaves ({@link dev.partita.sql.plan.SortBounds}) and the partition-key values it pins
 * ({@link dev.partita.sql.plan.PartitionKeyFilter}). The engine supplies EPK hashing and bounds when it serializes the
 * plan; nothing here depends on any other Partita module.
 */
package dev.partita.sql.plan;
