/**
 * JSON as the engine reads and writes it ({@link dev.partita.core.json.Json}): one Jackson mapper, parsing with the
 * service's limits on size and nesting turned into 400s, and compact serialization. A leaf beside {@code error}; every
 * package may use it.
 */
package dev.partita.core.json;
