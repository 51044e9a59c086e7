package dev.partita.sql.parse;

import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.functions.Builtins;
import dev.partita.sql.search.SearchFunctions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Static rules of the language checked on the AST (recursively for subqueries). Name binding and
 * function arity are checked by the compiler.
 */
public final class Validator {
    private Validator() {
    }

    public static void validate(Query q) {
        validateQuery(q);
    }

    private static void validateQuery(Query q) {
        boolean grouped = !q.groupBy().isEmpty();
        if (q.selection() instanceof Query.Selection.Star) {
            if (grouped) {
                throw new SqlException("SC2041", "'SELECT *' is not allowed with GROUP BY.");
            }
            if (q.from().size() != 1) {
                throw new SqlException("'SELECT *' is only valid with a single input set: it needs a FROM clause "
                        + "and cannot be combined with JOIN. List the properties to return instead.");
            }
        }
        if (grouped && !q.orderBy().isEmpty()) {
            throw new SqlException("GROUP BY cannot be combined with ORDER BY.");
        }
        if (q.where() != null) {
            noAggregates(q.where(), "the WHERE clause");
        }
        for (Expr g : q.groupBy()) {
            noAggregates(g, "the GROUP BY clause");
            forEachNode(g, e -> {
                if (e instanceof Expr.Subquery) {
                    throw new SqlException("Subqueries are not allowed in the GROUP BY clause.");
                }
            });
        }
        for (Query.OrderItem o : q.orderBy()) {
            noAggregates(o.expr(), "the ORDER BY clause");
            if (!isPath(o.expr()) && !SearchFunctions.isRankCall(o.expr())) {
                throw new SqlException("2206", "Unsupported ORDER BY clause. ORDER BY item expression could not be "
                        + "mapped to a document path.");
            }
        }
        List<Expr> selectExprs = selectExprs(q.selection());
        boolean aggregates = false;
        for (Expr e : selectExprs) {
            aggregates |= checkAggregateNesting(e);
        }
        if (grouped || aggregates) {
            for (Expr e : selectExprs) {
                checkGrouped(e, q.groupBy());
            }
        }
        for (Query.FromSource fs : q.from()) {
            if (fs.collection() instanceof Query.Collection.SubqueryCollection sq) {
                validateQuery(sq.query());
            }
        }
        // nested subqueries in expressions
        List<Expr> all = new ArrayList<>(selectExprs);
        if (q.where() != null) {
            all.add(q.where());
        }
        for (Expr e : all) {
            forEachNode(e, n -> {
                if (n instanceof Expr.Subquery s) {
                    validateQuery(s.query());
                }
            });
        }
    }

    /** True when the query's projection contains an aggregate call (outside subqueries). */
    public static boolean hasAggregates(Query q) {
        boolean[] found = {false};
        for (Expr e : selectExprs(q.selection())) {
            forEachNode(e, n -> {
                if (isAggregate(n)) {
                    found[0] = true;
                }
            });
        }
        return found[0];
    }

    static List<Expr> selectExprs(Query.Selection s) {
        if (s instanceof Query.Selection.Value v) {
            return List.of(v.expr());
        }
        if (s instanceof Query.Selection.Items items) {
            List<Expr> out = new ArrayList<>();
            for (Query.SelectItem i : items.items()) {
                out.add(i.expr());
            }
            return out;
        }
        return List.of();
    }

    /** True for a call of an aggregate function (COUNT, SUM, AVG, MIN, MAX, MAKELIST, MAKESET, COUNTIF). */
    public static boolean isAggregate(Expr e) {
        return e instanceof Expr.Call c && Builtins.isAggregate(c.name()) && Builtins.lookup(c.name()) == null;
    }

    /** Returns true when e contains an aggregate; rejects aggregates over aggregates or subqueries (SC2101). */
    private static boolean checkAggregateNesting(Expr e) {
        boolean[] found = {false};
        forEachNode(e, n -> {
            if (isAggregate(n)) {
                found[0] = true;
                for (Expr arg : ((Expr.Call) n).args()) {
                    forEachNode(arg, inner -> {
                        if (isAggregate(inner) || inner instanceof Expr.Subquery) {
                            throw new SqlException("SC2101", "Cannot perform an aggregate function on an expression "
                                    + "containing an aggregate or a subquery.");
                        }
                    });
                }
            }
        });
        return found[0];
    }

    private static void noAggregates(Expr e, String where) {
        forEachNode(e, n -> {
            if (isAggregate(n)) {
                throw new SqlException("Aggregate function " + ((Expr.Call) n).name().toUpperCase(java.util.Locale.ROOT)
                        + " is not allowed in " + where + ".");
            }
        });
    }

    private static void checkGrouped(Expr e, List<Expr> keys) {
        if (keys.contains(e) || isAggregate(e) || e instanceof Expr.Subquery) {
            return;
        }
        if (isPath(e)) {
            throw new SqlException("SC2102", "Property reference '" + pathText(e) + "' is invalid in the select list "
                    + "because it is not contained in either an aggregate function or the GROUP BY clause.");
        }
        for (Expr child : children(e)) {
            checkGrouped(child, keys);
        }
    }

    /** An alias followed by .name / ["name"] / [n] steps. */
    public static boolean isPath(Expr e) {
        if (e instanceof Expr.Identifier) {
            return true;
        }
        if (e instanceof Expr.Member m) {
            return isPath(m.target());
        }
        if (e instanceof Expr.Index ix) {
            return ix.index() instanceof Expr.Literal l && l.value() != null && l.value().isNumber()
                    && isPath(ix.target());
        }
        return false;
    }

    static String pathText(Expr e) {
        if (e instanceof Expr.Identifier id) {
            return id.name();
        }
        if (e instanceof Expr.Member m) {
            return pathText(m.target()) + (m.bracket() ? "[\"" + m.name() + "\"]" : "." + m.name());
        }
        if (e instanceof Expr.Index ix && ix.index() instanceof Expr.Literal l) {
            return pathText(ix.target()) + "[" + l.value() + "]";
        }
        return "?";
    }

    /** Visits e and its sub-expressions, not descending into subqueries. */
    public static void forEachNode(Expr e, Consumer<Expr> visitor) {
        visitor.accept(e);
        for (Expr c : children(e)) {
            forEachNode(c, visitor);
        }
    }

    static List<Expr> children(Expr e) {
        return switch (e) {
            case Expr.Literal l -> List.of();
            case Expr.Param p -> List.of();
            case Expr.Identifier i -> List.of();
            case Expr.Member m -> List.of(m.target());
            case Expr.Index ix -> List.of(ix.target(), ix.index());
            case Expr.Unary u -> List.of(u.operand());
            case Expr.Binary b -> List.of(b.left(), b.right());
            case Expr.Conditional c -> List.of(c.condition(), c.whenTrue(), c.whenFalse());
            case Expr.Between b -> List.of(b.value(), b.low(), b.high());
            case Expr.In in -> {
                List<Expr> l = new ArrayList<>(in.items());
                l.add(0, in.value());
                yield l;
            }
            case Expr.Like like -> like.escape() == null ? List.of(like.value(), like.pattern())
                    : List.of(like.value(), like.pattern(), like.escape());
            case Expr.Call c -> c.args();
            case Expr.UdfCall u -> u.args();
            case Expr.ArrayCtor a -> a.items();
            case Expr.Property p -> List.of(p.value());
            case Expr.ObjectCtor o -> new ArrayList<Expr>(o.properties());
            case Expr.Subquery s -> List.of();
        };
    }
}
