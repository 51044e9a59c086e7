/**
 * {@code partita advise}: the partition-key advisor. It reads a described {@link dev.partita.cli.advise.Workload}
 * (operations, rates, a data sample, a hot spot), lists candidate keys ({@link dev.partita.cli.advise.Candidates}),
 * classifies how each operation reaches the data under each one ({@link dev.partita.cli.advise.AccessPath}: point,
 * single partition, prefix, fan-out), then {@link dev.partita.cli.advise.Replay}s the workload against an in-process
 * Partita with capacity enforced and a virtual clock, through the official SDK, and ranks the candidates by measured
 * charges and 429s ({@link dev.partita.cli.advise.AdviceReport}). Depends on the engine, the server and the SDK; nothing
 * depends on it but the CLI.
 */
package dev.partita.cli.advise;
