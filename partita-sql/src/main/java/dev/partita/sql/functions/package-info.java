/**
 * The built-in scalar functions of the language (string, math, type checking, array, date/time,
 * conditional, spatial), looked up case-insensitively through {@link dev.partita.sql.functions.Builtins} with
 * their arities and whether undefined arguments short-circuit to undefined. Date/time functions that
 * read "now" get it from a {@link dev.partita.sql.functions.FunctionEnv} supplied by the caller's clock.
 * Full-text, vector and user-defined functions are known by name only and rejected as not
 * supported. Aggregate names are listed here too, but aggregation itself lives in {@code eval}. One call is
 * not interrupted by the query's time budget, so every function is linear (or n log n) in its arguments, and one
 * that compares every pair of its arguments' parts (the spatial ones) reports its steps to the deadline.
 * Depends on {@code value}, the module's {@code SqlException} and Jackson only.
 */
package dev.partita.sql.functions;
