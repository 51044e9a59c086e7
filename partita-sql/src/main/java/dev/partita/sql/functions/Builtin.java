package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.SqlException;

/**
 * One built-in scalar function.
 *
 * @param name          canonical (documented) spelling
 * @param minArgs       minimum argument count
 * @param maxArgs       maximum argument count ({@link Integer#MAX_VALUE} for variadic)
 * @param strict        when true, any undefined argument makes the result undefined without calling {@code impl}
 * @param deterministic when true, calls with constant arguments may be folded at compile time
 * @param impl          the implementation; receives arguments with {@code null} for undefined
 */
public record Builtin(String name, int minArgs, int maxArgs, boolean strict, boolean deterministic, Impl impl) {

    /** A function body. Returns {@code null} for undefined. */
    @FunctionalInterface
    public interface Impl {
        JsonNode apply(JsonNode[] args, FunctionEnv env);
    }

    public JsonNode call(JsonNode[] args, FunctionEnv env) {
        if (strict) {
            for (JsonNode a : args) {
                if (a == null) {
                    return null;
                }
            }
        }
        return apply(args, env);
    }

    /**
     * {@code impl} on arguments already checked for strictness. An arithmetic or argument failure inside it (an edge
     * case of a function's numbers nobody foresaw) is the query's 400, not the server's 500.
     */
    public JsonNode apply(JsonNode[] args, FunctionEnv env) {
        try {
            return impl.apply(args, env);
        } catch (SqlException e) {
            throw e;
        } catch (ArithmeticException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new SqlException("The function " + name + " cannot be evaluated on the arguments it was given.");
        }
    }
}
