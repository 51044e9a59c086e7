package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.functions.Builtin;
import dev.partita.sql.functions.Builtins;
import dev.partita.sql.parse.Validator;
import dev.partita.sql.search.SearchFunctions;
import dev.partita.sql.value.Num;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Compiles a validated AST once into {@link CompiledQuery}/{@link Eval} trees: aliases become frame
 * slot indexes, parameters become indexes into the resolved parameter array, functions are bound to
 * their implementations (and folded when every argument is constant), constant LIKE patterns and large
 * constant IN lists are precompiled.
 */
public final class Compiler {
    private static final int IN_SET_THRESHOLD = 8;

    private int slotCount;
    private final Map<String, Integer> params = new LinkedHashMap<>();

    private final Set<String> udfNames = new LinkedHashSet<>();
    /**
     * While a grouped query's select list compiles: its GROUP BY expressions, which it reads from their keys' slots
     * ({@link #keySlots}), so that a group's row needs only its key and its aggregates (a group carried across pages
     * keeps no item).
     */
    private List<Expr> projectedKeys;
    private int[] keySlots;

    /** The result of compiling one top-level query; {@code udfNames} are the user-defined functions it calls. */
    public record Program(CompiledQuery query, int slotCount, List<String> parameterNames, Set<String> udfNames) {
    }

    private Compiler() {
    }

    public static Program compile(Query q) {
        Compiler c = new Compiler();
        CompiledQuery cq = c.query(q, null, true);
        return new Program(cq, c.slotCount, List.copyOf(c.params.keySet()), Set.copyOf(c.udfNames));
    }

    /** Alias name → slot, chained to the enclosing query's scope. */
    private record Scope(Scope parent, Map<String, Integer> names) {
        Integer lookup(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                Integer slot = s.names.get(name);
                if (slot != null) {
                    return slot;
                }
            }
            return null;
        }
    }

    private CompiledQuery query(Query q, Scope outer, boolean containerAvailable) {
        List<Expr> outerKeys = projectedKeys;
        int[] outerKeySlots = keySlots;
        projectedKeys = null;
        Scope scope = new Scope(outer, new HashMap<>());
        List<RowSource> sources = new ArrayList<>();
        List<Integer> own = new ArrayList<>();
        for (int i = 0; i < q.from().size(); i++) {
            Query.FromSource fs = q.from().get(i);
            int slot = slotCount++;
            own.add(slot);
            RowSource source;
            if (fs.collection() instanceof Query.Collection.SubqueryCollection sq) {
                CompiledQuery sub = query(sq.query(), scope, containerAvailable && i == 0);
                source = new RowSource.Subquery(slot, fs.iterate(), sub);
            } else {
                Query.Collection.Path path = (Query.Collection.Path) fs.collection();
                Integer bound = scope.lookup(path.name());
                if (bound != null) {
                    source = new RowSource.Bound(slot, fs.iterate(), path(new Evals.SlotRef(bound),
                            path.segments()));
                } else if (containerAvailable && i == 0) {
                    if (path.segments().isEmpty()) {
                        source = new RowSource.Container(slot, fs.iterate(), slot, null);
                    } else {
                        int itemSlot = slotCount++;
                        own.add(itemSlot);
                        source = new RowSource.Container(slot, fs.iterate(), itemSlot,
                                path(new Evals.SlotRef(itemSlot), path.segments()));
                    }
                } else {
                    throw unresolved(path.name());
                }
            }
            if (scope.names().containsKey(fs.alias())) {
                throw new SqlException("The alias '" + fs.alias() + "' is bound more than once in the FROM clause; "
                        + "give each source a distinct alias.");
            }
            scope.names().put(fs.alias(), slot);
            sources.add(source);
        }

        Eval where = q.where() == null ? null : expr(q.where(), scope, null);
        boolean grouped = !q.groupBy().isEmpty();
        boolean aggregate = grouped || Validator.hasAggregates(q);
        List<CompiledQuery.AggSpec> aggs = aggregate ? new ArrayList<>() : null;
        int[] ownKeySlots = new int[q.groupBy().size()];
        for (int i = 0; i < ownKeySlots.length; i++) {
            ownKeySlots[i] = slotCount++;
        }
        projectedKeys = grouped ? q.groupBy() : null;
        keySlots = ownKeySlots;

        Projection projection;
        if (q.selection() instanceof Query.Selection.Star) {
            projection = new Projection.Star(scope.names().get(q.from().get(0).alias()));
        } else if (q.selection() instanceof Query.Selection.Value v) {
            projection = new Projection.Value(expr(v.expr(), scope, aggs));
        } else {
            List<Query.SelectItem> items = ((Query.Selection.Items) q.selection()).items();
            String[] names = new String[items.size()];
            Eval[] values = new Eval[items.size()];
            for (int i = 0; i < names.length; i++) {
                names[i] = items.get(i).outputName();
                values[i] = expr(items.get(i).expr(), scope, aggs);
            }
            projection = new Projection.Members(names, values);
        }
        projectedKeys = null;

        Eval[] groupKeys = new Eval[q.groupBy().size()];
        for (int i = 0; i < groupKeys.length; i++) {
            groupKeys[i] = expr(q.groupBy().get(i), scope, null);
        }
        Eval[] orderKeys = null;
        boolean[] descending = null;
        if (!q.orderBy().isEmpty()) {
            orderKeys = new Eval[q.orderBy().size()];
            descending = new boolean[orderKeys.length];
            for (int i = 0; i < orderKeys.length; i++) {
                Expr key = q.orderBy().get(i).expr();
                // closeness and relevance sort best first whatever the query writes (the service's ORDER BY RANK)
                boolean rank = SearchFunctions.isRankCall(key);
                orderKeys[i] = rank ? search((Expr.Call) key, scope, null, true) : expr(key, scope, null);
                descending[i] = rank || q.orderBy().get(i).descending();
            }
        }
        int[] ownSlots = own.stream().mapToInt(Integer::intValue).toArray();
        projectedKeys = outerKeys;
        keySlots = outerKeySlots;
        return new CompiledQuery(sources.toArray(new RowSource[0]), ownSlots, where, projection,
                q.distinct(), count(q.top(), "TOP"), count(q.offset(), "OFFSET"), count(q.limit(), "LIMIT"),
                aggregate, new CompiledQuery.GroupKeys(groupKeys, ownKeySlots),
                aggregate ? aggs.toArray(new CompiledQuery.AggSpec[0]) : new CompiledQuery.AggSpec[0],
                orderKeys, descending);
    }

    private CompiledQuery.CountRef count(Query.Count c, String what) {
        if (c == null) {
            return null;
        }
        if (c instanceof Query.Count.Constant k) {
            return new CompiledQuery.CountRef(k.value(), -1, what);
        }
        return new CompiledQuery.CountRef(-1, param(((Query.Count.Parameter) c).name()), what);
    }

    private int param(String name) {
        return params.computeIfAbsent(name, n -> params.size());
    }

    private static Eval path(Eval base, List<Query.PathSegment> segments) {
        Eval e = base;
        for (Query.PathSegment s : segments) {
            if (s instanceof Query.PathSegment.Name n) {
                e = new Evals.Member(e, n.name());
            } else {
                e = new Evals.Index(e, new Evals.Const(Num.of(((Query.PathSegment.Position) s).index())));
            }
        }
        return e;
    }

    private static SqlException unresolved(String name) {
        return new SqlException("Identifier '" + name + "' could not be resolved. Every property reference must start "
                + "from an alias bound in FROM (for example c." + name + " with FROM c).");
    }

    // ------------------------------------------------------------------ expressions

    /** Compiles e in scope; {@code aggs} collects aggregate calls, or is null where aggregates are not allowed. */
    private Eval expr(Expr e, Scope scope, List<CompiledQuery.AggSpec> aggs) {
        // in the select list (aggs) outside an aggregate's argument (none), a GROUP BY expression is its group's key
        int key = aggs != null && projectedKeys != null ? projectedKeys.indexOf(e) : -1;
        if (key >= 0) {
            return new Evals.SlotRef(keySlots[key]);
        }
        return switch (e) {
            case Expr.Literal l -> new Evals.Const(l.value());
            case Expr.Param p -> new Evals.ParamRef(param(p.name()));
            case Expr.Identifier id -> {
                Integer slot = scope.lookup(id.name());
                if (slot == null) {
                    throw unresolved(id.name());
                }
                yield new Evals.SlotRef(slot);
            }
            case Expr.Member m -> new Evals.Member(expr(m.target(), scope, aggs), m.name());
            case Expr.Index ix -> new Evals.Index(expr(ix.target(), scope, aggs), expr(ix.index(), scope, aggs));
            case Expr.Unary u -> fold(switch (u.op()) {
                case NEGATE -> new Evals.Negate(expr(u.operand(), scope, aggs));
                case PLUS -> new Evals.UnaryPlus(expr(u.operand(), scope, aggs));
                case BIT_NOT -> new Evals.BitNot(expr(u.operand(), scope, aggs));
                case NOT -> new Evals.Not(expr(u.operand(), scope, aggs));
            }, List.of(u.operand()));
            case Expr.Binary b -> binary(b, scope, aggs);
            case Expr.Conditional c -> new Evals.Conditional(expr(c.condition(), scope, aggs),
                    expr(c.whenTrue(), scope, aggs), expr(c.whenFalse(), scope, aggs));
            case Expr.Between b -> new Evals.Between(expr(b.value(), scope, aggs), expr(b.low(), scope, aggs),
                    expr(b.high(), scope, aggs), b.not());
            case Expr.In in -> in(in, scope, aggs);
            case Expr.Like like -> like(like, scope, aggs);
            case Expr.Call call -> call(call, scope, aggs);
            case Expr.UdfCall udf -> {
                udfNames.add(udf.name());
                Eval[] args = new Eval[udf.args().size()];
                for (int i = 0; i < args.length; i++) {
                    args[i] = expr(udf.args().get(i), scope, aggs);
                }
                // never folded: the function's body is the container's, and may change between executions
                yield new Evals.UdfCall(udf.name(), args);
            }
            case Expr.ArrayCtor a -> {
                Eval[] items = new Eval[a.items().size()];
                for (int i = 0; i < items.length; i++) {
                    items[i] = expr(a.items().get(i), scope, aggs);
                }
                yield new Evals.ArrayCtor(items);
            }
            case Expr.ObjectCtor o -> {
                String[] names = new String[o.properties().size()];
                Eval[] values = new Eval[names.length];
                for (int i = 0; i < names.length; i++) {
                    names[i] = o.properties().get(i).name();
                    values[i] = expr(o.properties().get(i).value(), scope, aggs);
                }
                yield new Evals.ObjectCtor(names, values);
            }
            case Expr.Property p -> expr(p.value(), scope, aggs);
            case Expr.Subquery s -> new Evals.Subquery(s.kind(), query(s.query(), scope, false));
        };
    }

    /** Evaluates a node once at compile time when all its inputs are literals. */
    private static Eval fold(Eval e, List<Expr> inputs) {
        for (Expr in : inputs) {
            if (!(in instanceof Expr.Literal)) {
                return e;
            }
        }
        return new Evals.Const(e.eval(null));
    }

    private Eval binary(Expr.Binary b, Scope scope, List<CompiledQuery.AggSpec> aggs) {
        Eval l = expr(b.left(), scope, aggs);
        Eval r = expr(b.right(), scope, aggs);
        Eval e = switch (b.op()) {
            case ADD, SUB, MUL, DIV, MOD -> new Evals.Arithmetic(b.op(), l, r);
            case SHL, SHR, USHR, BIT_AND, BIT_OR, BIT_XOR -> new Evals.Bitwise(b.op(), l, r);
            case LT, GT, LE, GE, EQ, NEQ -> new Evals.Compare(b.op(), l, r);
            case CONCAT -> new Evals.Concat(l, r);
            case AND -> new Evals.And(l, r);
            case OR -> new Evals.Or(l, r);
            case COALESCE -> new Evals.Coalesce(l, r);
        };
        return fold(e, List.of(b.left(), b.right()));
    }

    private Eval in(Expr.In in, Scope scope, List<CompiledQuery.AggSpec> aggs) {
        Eval value = expr(in.value(), scope, aggs);
        Eval[] items = new Eval[in.items().size()];
        boolean allConst = true;
        for (int i = 0; i < items.length; i++) {
            items[i] = expr(in.items().get(i), scope, aggs);
            allConst &= items[i] instanceof Evals.Const;
        }
        if (allConst && items.length > IN_SET_THRESHOLD) {
            Set<Key> set = new HashSet<>();
            for (Eval item : items) {
                JsonNode v = ((Evals.Const) item).value();
                if (v != null) {
                    set.add(Key.of(v));
                }
            }
            return new Evals.InSet(value, set, in.not());
        }
        return new Evals.In(value, items, in.not());
    }

    private Eval like(Expr.Like like, Scope scope, List<CompiledQuery.AggSpec> aggs) {
        Eval value = expr(like.value(), scope, aggs);
        Eval pattern = expr(like.pattern(), scope, aggs);
        Eval escape = like.escape() == null ? null : expr(like.escape(), scope, aggs);
        if (pattern instanceof Evals.Const pc && pc.value() != null && pc.value().isTextual()
                && (escape == null || escape instanceof Evals.Const)) {
            char esc = 0;
            if (escape != null) {
                JsonNode ev = ((Evals.Const) escape).value();
                if (ev == null || !ev.isTextual() || ev.textValue().length() != 1) {
                    throw new SqlException("The ESCAPE value of a LIKE must be a single character.");
                }
                esc = ev.textValue().charAt(0);
            }
            return new Evals.LikeConst(value, Like.compileUncached(pc.value().textValue(), esc), like.not());
        }
        return new Evals.LikeDynamic(value, pattern, escape, like.not());
    }

    private Eval call(Expr.Call call, Scope scope, List<CompiledQuery.AggSpec> aggs) {
        String name = call.name();
        if (Builtins.isAggregate(name)) {
            if (aggs == null) {
                throw new SqlException("Aggregate function " + name.toUpperCase(Locale.ROOT)
                        + " is not allowed here; aggregates may only appear in the select list.");
            }
            if (call.args().size() != 1) {
                throw new SqlException("SC2050", "The " + name.toUpperCase(Locale.ROOT)
                        + " function requires 1 argument(s).");
            }
            Eval arg = expr(call.args().get(0), scope, null);
            int slot = slotCount++;
            aggs.add(new CompiledQuery.AggSpec(Aggregate.of(name), arg, slot));
            return new Evals.SlotRef(slot);
        }
        if (SearchFunctions.isSearch(name)) {
            return search(call, scope, aggs, false);
        }
        if (Builtins.isUnsupported(name)) {
            throw new SqlException("The function " + name.toUpperCase(Locale.ROOT) + " is not supported by Partita "
                    + "(DocumentId is not implemented).");
        }
        Builtin fn = Builtins.lookup(name);
        if (fn == null) {
            throw new SqlException("SC2005", "'" + name + "' is not a recognized built-in function name.");
        }
        int n = call.args().size();
        if (n < fn.minArgs() || n > fn.maxArgs()) {
            String range = fn.maxArgs() == Builtins.VARIADIC ? "at least " + fn.minArgs()
                    : fn.minArgs() == fn.maxArgs() ? Integer.toString(fn.minArgs())
                    : fn.minArgs() + " to " + fn.maxArgs();
            throw new SqlException("SC2050", "The " + fn.name().toUpperCase(Locale.ROOT) + " function requires "
                    + range + " argument(s).");
        }
        Eval[] args = new Eval[n];
        boolean allConst = fn.deterministic();
        for (int i = 0; i < n; i++) {
            args[i] = expr(call.args().get(i), scope, aggs);
            allConst &= args[i] instanceof Evals.Const;
        }
        Evals.Call e = new Evals.Call(fn, args);
        if (allConst) {
            try {
                return new Evals.Const(e.eval(null));
            } catch (SqlException tooLong) {
                if (!SqlException.NOT_FOLDED.equals(tooLong.code())) {
                    throw tooLong;
                }
            }
        }
        return e;
    }

    private Eval search(Expr.Call call, Scope scope, List<CompiledQuery.AggSpec> aggs, boolean orderKey) {
        if (orderKey && SearchFunctions.isRankOnly(call)) {
            return f -> {
                throw new SqlException(call.name().toUpperCase(Locale.ROOT) + " ranks across all partitions: the "
                        + "gateway's query plan runs it as component queries, which an SDK with hybrid search "
                        + "support sends.");
            };
        }
        Eval[] args = new Eval[call.args().size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = expr(call.args().get(i), scope, aggs);
        }
        JsonNode options = null;
        if (args.length == 4 && SearchFunctions.isVectorCall(call)) {
            // the options decide how the index is used before any item is read: they must be written out
            options = SearchFunctions.constant(call.args().get(3));
            if (options == null) {
                throw new SqlException("The fourth argument of VectorDistance must be a constant object literal.");
            }
        }
        return SearchFunctions.compile(call, args, options, orderKey);
    }
}
