/**
 * The built-in scalar functions of the language (string, math, type checking, array, date/time,
 * conditional, spatial), looked up case-insensitively through {@link dev.partita.sql.functions.Builtins} with
 * their arities and whether undefined arguments short-circuit to undefined. Date/time functions that
 * read "now" get it from a {@link dev.partita.sql.functions.FunctionEnv} supplied by the caller's clock.
 * Full-text, vector and user-defined functions are known by name only and rejected as not
 * supported. Aggregate names are listed here too, but aggregation itself lives in {@code eval}.
 * Depends on {@code value} and Jackson only.
 */
package dev.partita.sql.functions;
