package dev.partita.sql.ast;

import java.util.List;

/**
 * One SELECT statement (top level or subquery).
 *
 * @param distinct   {@code SELECT DISTINCT}
 * @param top        {@code TOP n}, or null
 * @param selection  the projection
 * @param from       FROM sources in order (the first source, then each JOIN); empty when there is no FROM
 * @param where      WHERE condition, or null
 * @param groupBy    GROUP BY keys (empty when absent)
 * @param orderBy    ORDER BY items (empty when absent)
 * @param offset     OFFSET count, or null (set together with {@code limit})
 * @param limit      LIMIT count, or null
 */
public record Query(boolean distinct, Count top, Selection selection, List<FromSource> from, Expr where,
                    List<Expr> groupBy, List<OrderItem> orderBy, Count offset, Count limit) {

    public Query {
        from = List.copyOf(from);
        groupBy = List.copyOf(groupBy);
        orderBy = List.copyOf(orderBy);
    }

    /** A TOP / OFFSET / LIMIT count: an integer literal or a parameter. */
    public sealed interface Count {
        /** A literal count. */
        record Constant(long value) implements Count {
        }

        /** A parameter; {@code name} includes the {@code @}. */
        record Parameter(String name) implements Count {
        }
    }

    /** The projection. */
    public sealed interface Selection {
        /** {@code SELECT *}. */
        record Star() implements Selection {
        }

        /** {@code SELECT VALUE expr}. */
        record Value(Expr expr) implements Selection {
        }

        /** {@code SELECT e1 [AS a1], ...}; {@code outputName} is the alias or the implied name. */
        record Items(List<SelectItem> items) implements Selection {
            public Items {
                items = List.copyOf(items);
            }
        }
    }

    /** One select-list item with its output property name (the alias, the implied name or {@code $n}). */
    public record SelectItem(Expr expr, String alias, String outputName) {
    }

    /**
     * One ORDER BY item. {@code directionWritten} is true when the query spelled out ASC or DESC (query plans
     * repeat the words as written).
     */
    public record OrderItem(Expr expr, boolean descending, boolean directionWritten) {
        /** An item whose direction is spelled out only when descending. */
        public OrderItem(Expr expr, boolean descending) {
            this(expr, descending, descending);
        }
    }

    /**
     * One FROM / JOIN source.
     *
     * @param alias      the name the source binds (explicit alias, or implied: the last path segment or the name;
     *                   empty for an unaliased FROM subquery, which nothing can reference)
     * @param collection what is iterated
     * @param iterate    true for {@code alias IN collection} (bind each element of each array value)
     */
    public record FromSource(String alias, Collection collection, boolean iterate) {
    }

    /** A collection expression in FROM / JOIN. */
    public sealed interface Collection {
        /**
         * A name followed by a path: {@code c}, {@code root}, {@code c.children}, {@code c["a"][0]}.
         * For the first source of a query the name is the container label unless it names an alias of an
         * enclosing query; elsewhere it must be a bound alias.
         */
        record Path(String name, List<PathSegment> segments) implements Collection {
            public Path {
                segments = List.copyOf(segments);
            }
        }

        /** {@code (SELECT ...)} used as a source. */
        record SubqueryCollection(Query query) implements Collection {
        }
    }

    /** One step in a FROM path: a property name or an array index. */
    public sealed interface PathSegment {
        /** {@code .name} or {@code ["name"]}. */
        record Name(String name) implements PathSegment {
        }

        /** {@code [n]}. */
        record Position(int index) implements PathSegment {
        }
    }
}
