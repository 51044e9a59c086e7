/**
 * Benchmarks: JMH benchmarks of the engine in-process ({@code PointOperationsBenchmark}), and the SDK load harness
 * ({@link dev.partita.bench.LoadHarness}): the official Java SDK against Partita and against a minimal ceiling server
 * ({@code CeilingServer}) in the same run, with {@code JfrTop} to aggregate the JFR profiles it is analysed with.
 * Depends on partita-server and partita-core; nothing depends on it. Not part of the default test run; commands and
 * numbers are in BENCHMARKS.md.
 */
package dev.partita.bench;
