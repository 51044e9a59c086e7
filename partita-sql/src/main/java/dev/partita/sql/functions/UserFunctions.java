package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The user-defined functions ({@code udf.name(...)}) a query may call, supplied by whoever runs the query (the engine
 * keeps them with the container and runs them in its script runtime). This module only calls them.
 */
@FunctionalInterface
public interface UserFunctions {
    /**
     * Calls {@code udf.name} with these arguments ({@code null} for undefined) and returns its result ({@code null}
     * for undefined). Throws {@link dev.partita.sql.SqlException} or the caller's own exception when the function
     * does not exist or fails.
     */
    JsonNode call(String name, JsonNode[] args);
}
