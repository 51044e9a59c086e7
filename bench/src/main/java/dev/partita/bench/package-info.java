/**
 * Benchmarks: JMH benchmarks of the engine in-process, and the SDK load harness against {@code partita serve}.
 * Not part of the default test run; commands and numbers are in BENCHMARKS.md.
 */
package dev.partita.bench;
