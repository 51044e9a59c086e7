package dev.partita.core.item;

import com.fasterxml.jackson.databind.JsonNode;

/** Evaluates a patch's filter predicate ({@code "FROM c WHERE ..."}) on the current item. */
@FunctionalInterface
public interface PatchCondition {
    boolean test(String condition, JsonNode item);
}
