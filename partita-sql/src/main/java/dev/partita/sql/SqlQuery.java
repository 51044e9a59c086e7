package dev.partita.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.eval.AggregateState;
import dev.partita.sql.eval.CompiledQuery;
import dev.partita.sql.eval.Compiler;
import dev.partita.sql.eval.Frame;
import dev.partita.sql.eval.UndefinedAggregates;
import dev.partita.sql.parse.Parsing;
import dev.partita.sql.parse.Validator;
import dev.partita.sql.plan.UndefinedPartial;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed, validated and compiled query. Immutable and thread-safe: compile once, run many times.
 * <p>
 * Result rows are Jackson nodes that may share structure with the input items and with constants of
 * the query (no defensive copies are made on the hot path); treat them as read-only.
 * <p>
 * Parameters are passed by name <em>including</em> the {@code @} ({@code "@minAge"}); a parameter the query
 * references but the map lacks is a {@link SqlException}. A map entry whose value is Java {@code null} is
 * taken as JSON {@code null}.
 */
public final class SqlQuery {
    private final String text;
    private final Query ast;
    private final Compiler.Program program;
    private final boolean aggregates;
    /** Parsed on a parser thread's large stack: its tree is recompiled there too. */
    private final boolean large;

    SqlQuery(String text, Query ast, Compiler.Program program, boolean large) {
        this.text = text;
        this.ast = ast;
        this.program = program;
        this.aggregates = Validator.hasAggregates(ast);
        this.large = large;
    }

    /**
     * True when the WHERE clause (if any) is true for this item bound to the FROM alias (for a query with
     * JOINs: for at least one joined row). Functions that read the current time fail; use
     * {@link #matches(JsonNode, Map, EvalContext)} for those.
     */
    public boolean matches(JsonNode item, Map<String, JsonNode> params) {
        return matches(item, params, null);
    }

    /** As {@link #matches(JsonNode, Map)}, with a clock for the date/time functions. */
    public boolean matches(JsonNode item, Map<String, JsonNode> params, EvalContext ctx) {
        Objects.requireNonNull(item, "item");
        Frame f = new Frame(program.slotCount(), resolve(params), Collections.singletonList(item),
                ctx == null ? null : ctx.clock(), ctx);
        return program.query().anyMatch(f);
    }

    /**
     * Runs the whole query over these items (one container's or one partition's items, in any order) and
     * returns the result rows in query order.
     */
    public List<JsonNode> execute(Iterable<? extends JsonNode> items, Map<String, JsonNode> params, EvalContext ctx) {
        return execute(items, params, ctx, UndefinedAggregates.NONE);
    }

    /**
     * As {@link #execute(Iterable, Map, EvalContext)} for one range of a wider scope: the aggregates that
     * {@code wider} (from {@link #undefinedAggregates} over the whole scope) has undefined are undefined here too.
     */
    public List<JsonNode> execute(Iterable<? extends JsonNode> items, Map<String, JsonNode> params, EvalContext ctx,
            UndefinedAggregates wider) {
        Objects.requireNonNull(ctx, "ctx");
        Frame f = new Frame(program.slotCount(), resolve(params), items, ctx.clock(), ctx);
        List<JsonNode> out = new ArrayList<>();
        program.query().run(f, row -> {
            out.add(row);
            return true;
        }, wider);
        return out;
    }

    /**
     * The aggregates these items (a whole cross-partition scope) make undefined for good, per group: pass them to
     * {@link #execute(Iterable, Map, EvalContext, UndefinedAggregates)} on each range of the scope.
     */
    public UndefinedAggregates undefinedAggregates(Iterable<? extends JsonNode> items, Map<String, JsonNode> params,
            EvalContext ctx) {
        Objects.requireNonNull(ctx, "ctx");
        if (!aggregates) {
            return UndefinedAggregates.NONE;
        }
        return program.query().undefinedAggregates(new Frame(program.slotCount(), resolve(params), items,
                ctx.clock(), ctx), UndefinedPartial.RULES);
    }

    /**
     * For {@link #execute(Iterable, Map, EvalContext, UndefinedAggregates)} on a range that holds the whole scope of
     * a query the SDK merges (one partition, or a filter that pins one partition key): what it alone makes undefined.
     */
    public static UndefinedAggregates wholeScope() {
        return UndefinedAggregates.wholeScope(UndefinedPartial.RULES);
    }

    /**
     * Pushes result rows to {@code sink} as they are produced, item by item, until the items run out or the sink
     * returns false. Only meaningful for queries without ORDER BY, GROUP BY, aggregates or DISTINCT, whose rows
     * depend on one item at a time; the engine uses it to page through a range without materializing it.
     */
    public void stream(Iterable<? extends JsonNode> items, Map<String, JsonNode> params, EvalContext ctx,
            java.util.function.Predicate<JsonNode> sink) {
        Objects.requireNonNull(ctx, "ctx");
        Frame f = new Frame(program.slotCount(), resolve(params), items, ctx.clock(), ctx);
        program.query().run(f, sink::test);
    }

    /** True when rows depend on one item at a time, so the query can be paged by item position. */
    public boolean isStreamable() {
        return !hasOrderBy() && !hasGroupBy() && !hasAggregates() && !isDistinct();
    }

    /**
     * True when each item gives at most one row: one FROM source over the container (or a path in it) and no JOIN,
     * {@code IN} or subquery source. A page that stops after such a row has returned all of that item.
     */
    public boolean oneRowPerItem() {
        if (ast.from().size() != 1) {
            return false;
        }
        Query.FromSource source = ast.from().get(0);
        return !source.iterate() && source.collection() instanceof Query.Collection.Path;
    }

    /** This query without TOP, OFFSET and LIMIT, which the engine then applies across pages itself. */
    public SqlQuery withoutPaging() {
        if (ast.top() == null && ast.offset() == null && ast.limit() == null) {
            return this;
        }
        Query q = new Query(ast.distinct(), null, ast.selection(), ast.from(), ast.where(), ast.groupBy(),
                ast.orderBy(), null, null);
        return recompiled(q);
    }

    /**
     * This query without ORDER BY, TOP, OFFSET and LIMIT: the engine uses it when it reads items in the order's own
     * sequence (through the index) and pages across them itself.
     */
    public SqlQuery withoutOrderByOrPaging() {
        Query q = new Query(ast.distinct(), null, ast.selection(), ast.from(), ast.where(), ast.groupBy(), List.of(),
                null, null);
        return recompiled(q);
    }

    private SqlQuery recompiled(Query q) {
        return Parsing.onStack(large, () -> new SqlQuery(text, q, Compiler.compile(q), large));
    }

    /**
     * The document number of an item's {@code _rid} as the SDKs read it when they resume an ORDER BY query (ties
     * within a partition come in this number's order), or null when the text is not a document rid.
     */
    public static Long ridDocumentNumber(String rid) {
        return dev.partita.sql.eval.Rids.documentNumber(rid);
    }

    private JsonNode[] resolve(Map<String, JsonNode> params) {
        List<String> names = program.parameterNames();
        JsonNode[] values = new JsonNode[names.size()];
        for (int i = 0; i < values.length; i++) {
            String name = names.get(i);
            if (params == null || !params.containsKey(name)) {
                // undefined, as the service binds it: NOT IS_DEFINED(@p) OR c.x = @p is how callers (Spring Data's
                // empty Optionals among them) make a filter optional; TOP/OFFSET/LIMIT still want a count
                values[i] = null;
                continue;
            }
            JsonNode v = params.get(name);
            values[i] = v == null ? NullNode.instance : v;
        }
        return values;
    }

    // ------------------------------------------------------------------ accessors for planning

    /** The query text as given. */
    public String text() {
        return text;
    }

    /** The validated syntax tree. */
    public Query ast() {
        return ast;
    }

    /** The names of the user-defined functions ({@code udf.name}) the query calls, anywhere in it. */
    public Set<String> userFunctionNames() {
        return program.udfNames();
    }

    /** Names (with {@code @}) of the parameters the query references, in first-use order. */
    public List<String> parameterNames() {
        return program.parameterNames();
    }

    public boolean hasOrderBy() {
        return !ast.orderBy().isEmpty();
    }

    public List<Query.OrderItem> orderBy() {
        return ast.orderBy();
    }

    public boolean hasGroupBy() {
        return !ast.groupBy().isEmpty();
    }

    public List<Expr> groupBy() {
        return ast.groupBy();
    }

    /**
     * True when the top-level projection has SUM, AVG, MIN or MAX, which one value of the wrong type anywhere in the
     * scope makes undefined (see {@link #undefinedAggregates}).
     */
    public boolean hasTypeSensitiveAggregates() {
        return program.query().hasTypeSensitiveAggregates();
    }

    /**
     * True when a page over part of the items may answer the rows of that part alone, as the service's pages do: an
     * aggregate or GROUP BY query whose aggregates are all COUNT, without ORDER BY, DISTINCT, TOP, OFFSET or LIMIT.
     * The SDKs add up the COUNT shares of every page and merge a group met on several pages (query-plans.md
     * §2.11-2.13); SUM, AVG, MIN and MAX are left out, since one value of the wrong type in a later part would make
     * the result undefined after earlier parts were sent as numbers (see {@link #undefinedAggregates}). The rows must
     * come from the container's items one at a time: a FROM subquery ({@code FROM (SELECT DISTINCT ...)}) sees the
     * whole scope at once, and its COUNT over part of the items does not add up.
     */
    public boolean pagesAsPartials() {
        return (aggregates || hasGroupBy()) && program.query().countsOnly() && groupsItemsOneAtATime();
    }

    /**
     * True for an aggregate or GROUP BY query whose SUM, AVG, MIN or MAX a page over part of the items may carry on
     * in its continuation instead of answering it ({@link AggregateState}), under the conditions of
     * {@link #pagesAsPartials()} but for the aggregates: COUNT, SUM, AVG, MIN and MAX only, and a select list without
     * a subquery (a carried group keeps its key and its aggregates, no item to run one on).
     */
    public boolean carriesAggregates() {
        return hasTypeSensitiveAggregates() && carriesCounts();
    }

    /**
     * As {@link #carriesAggregates()} for any aggregates of those five, COUNT alone too: a range that is the query's
     * whole scope (a partition key's) carries even COUNT on rather than paging its shares, since the JS SDK's first
     * request with a partition key passes its pages to the caller as they are (js-sdk.md §4).
     */
    public boolean carriesCounts() {
        return (aggregates || hasGroupBy()) && program.query().carriesAggregates() && groupsItemsOneAtATime()
                && !selectsSubquery();
    }

    private boolean selectsSubquery() {
        List<Expr> selected = switch (ast.selection()) {
            case Query.Selection.Value v -> List.of(v.expr());
            case Query.Selection.Items items -> items.items().stream().map(Query.SelectItem::expr).toList();
            case Query.Selection.Star star -> List.of();
        };
        boolean[] found = {false};
        for (Expr e : selected) {
            Validator.forEachNode(e, n -> found[0] |= n instanceof Expr.Subquery);
        }
        return found[0];
    }

    /** No ORDER BY, DISTINCT, TOP, OFFSET or LIMIT, and rows from the container's items one at a time. */
    private boolean groupsItemsOneAtATime() {
        return !hasOrderBy() && !isDistinct() && ast.top() == null && ast.offset() == null && ast.limit() == null
                && ast.from().stream().limit(1).allMatch(f -> f.collection() instanceof Query.Collection.Path);
    }

    /** For {@link #carriesAggregates()}: the state before any item (with {@code wholeToo}, the whole scope's too). */
    public AggregateState newAggregateState(boolean wholeToo) {
        return AggregateState.start(program.query(), wholeToo);
    }

    /** The state {@link AggregateState#encode()} wrote for this query; IllegalArgumentException otherwise. */
    public AggregateState aggregateState(String encoded) {
        return AggregateState.decode(program.query(), encoded);
    }

    /**
     * Adds these items' rows to {@code state}: all of them to its whole scope's part, and those of the items
     * {@code isLocal} says are the range's (asked once an item is read) to the range's.
     */
    public void accumulate(Iterable<? extends JsonNode> items, Map<String, JsonNode> params, EvalContext ctx,
            AggregateState state, java.util.function.BooleanSupplier isLocal) {
        Objects.requireNonNull(ctx, "ctx");
        state.accumulate(program.query(), new Frame(program.slotCount(), resolve(params), items, ctx.clock(), ctx),
                isLocal);
    }

    /** The rows of the range's whole read accumulated in {@code state}, as the range answers them. */
    public List<JsonNode> carriedRows(AggregateState state, Map<String, JsonNode> params, EvalContext ctx) {
        return rowsOf((f, sink) -> state.emit(program.query(), f, sink, UndefinedPartial.RULES), params, ctx);
    }

    /**
     * The rows of a GROUP BY range's whole read accumulated in {@code state}, judged by what the whole scope makes
     * undefined ({@code wider}, from {@link #undefinedAggregates(AggregateState, Map, EvalContext)} over it).
     */
    public List<JsonNode> carriedRows(AggregateState state, UndefinedAggregates wider, Map<String, JsonNode> params,
            EvalContext ctx) {
        return rowsOf((f, sink) -> state.emit(program.query(), f, sink, wider), params, ctx);
    }

    /**
     * The row of a page that carries its state on ({@link AggregateState#emitNeutral}): the partials of nothing, in a
     * group {@code wider} shows (none for a GROUP BY while {@code wider} is null, or shows no group).
     */
    public List<JsonNode> neutralRows(UndefinedAggregates wider, Map<String, JsonNode> params, EvalContext ctx) {
        return rowsOf((f, sink) -> AggregateState.emitNeutral(program.query(), f, sink, wider), params, ctx);
    }

    /** What the groups of {@code state}, read over a whole scope, make undefined for good (see the others). */
    public UndefinedAggregates undefinedAggregates(AggregateState state, Map<String, JsonNode> params,
            EvalContext ctx) {
        Objects.requireNonNull(ctx, "ctx");
        return state.undefinedAggregates(program.query(), new Frame(program.slotCount(), resolve(params), List.of(),
                ctx.clock(), ctx), UndefinedPartial.RULES);
    }

    private List<JsonNode> rowsOf(java.util.function.BiConsumer<Frame, CompiledQuery.Sink> emit,
            Map<String, JsonNode> params, EvalContext ctx) {
        Objects.requireNonNull(ctx, "ctx");
        List<JsonNode> out = new ArrayList<>();
        emit.accept(new Frame(program.slotCount(), resolve(params), List.of(), ctx.clock(), ctx), row -> {
            out.add(row);
            return true;
        });
        return out;
    }

    /** True when the top-level projection contains an aggregate (COUNT, SUM, AVG, MIN, MAX, ...). */
    public boolean hasAggregates() {
        return aggregates;
    }

    public boolean isDistinct() {
        return ast.distinct();
    }


    public Optional<Query.Count> top() {
        return Optional.ofNullable(ast.top());
    }

    public Optional<Query.Count> offset() {
        return Optional.ofNullable(ast.offset());
    }

    public Optional<Query.Count> limit() {
        return Optional.ofNullable(ast.limit());
    }

    @Override
    public String toString() {
        return "SqlQuery[" + text + "]";
    }
}
