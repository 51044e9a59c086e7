package dev.partita.core;

import dev.partita.core.error.ServiceException;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.item.PatchCondition;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import java.time.Clock;
import java.util.Map;

/** Patch filter predicates evaluated with the query language ({@code "FROM c WHERE ..."}). */
public final class SqlPatchCondition implements PatchCondition {
    private final EvalContext context;

    public SqlPatchCondition(Clock clock) {
        this.context = EvalContext.of(clock);
    }

    @Override
    public boolean test(String condition, JsonNode item) {
        try {
            return Sql.parseCondition(condition).matches(item, Map.of(), context);
        } catch (SqlException e) {
            throw ServiceException.badRequest("The patch condition is not a valid filter: " + e.getMessage());
        }
    }
}
