package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;

/** A compiled scalar expression. Returns {@code null} for undefined. Implementations are immutable and thread-safe. */
@FunctionalInterface
public interface Eval {
    JsonNode eval(Frame f);
}
