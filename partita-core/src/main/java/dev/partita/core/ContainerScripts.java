package dev.partita.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.capacity.CostModel;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.Items;
import dev.partita.core.item.PartitionTxn;
import dev.partita.core.json.Json;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.script.ScriptCatalog;
import dev.partita.core.script.ScriptExecution;
import dev.partita.core.script.ScriptKind;
import dev.partita.core.script.ScriptResource;
import dev.partita.core.script.ScriptRuntime;
import dev.partita.core.script.Triggers;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A container's server-side scripts through the request lifecycle: their resources (stored procedures, triggers,
 * user-defined functions), stored procedure execution, and item writes with pre- and post-triggers. An execution
 * is authorized, routed to its one logical partition and admitted like any request; its operations and the write a
 * trigger wraps run in one transaction under the container's writer (so executions on a partition serialise), priced
 * by the cost model on the work they did and charged once. A script that throws, times out or outgrows the
 * partition's budget applies nothing.
 */
public final class ContainerScripts {
    private final Engine engine;
    private final ContainerHandle handle;
    private final Items items;
    private final Capacity capacity;
    private final CostModel costs;
    private final ScriptCatalog catalog;
    private final ScriptRuntime runtime;

    ContainerScripts(Engine engine, ContainerHandle handle, Items items, Capacity capacity, ScriptCatalog catalog,
            ScriptRuntime runtime) {
        this.engine = engine;
        this.handle = handle;
        this.items = items;
        this.capacity = capacity;
        this.costs = capacity.costs();
        this.catalog = catalog;
        this.runtime = runtime;
    }

    // ---- the script resources

    public List<ScriptResource> list(ScriptKind kind, RequestOptions o) {
        return catalog.list(handle.scripts(o, false), kind);
    }

    public ScriptResource read(ScriptKind kind, String id, RequestOptions o) {
        return catalog.get(handle.scripts(o, false), kind, id);
    }

    public ScriptResource create(ScriptKind kind, ObjectNode body, RequestOptions o) {
        return catalog.create(handle.scripts(o, true), kind, body);
    }

    public ScriptResource replace(ScriptKind kind, String id, ObjectNode body, RequestOptions o) {
        return catalog.replace(handle.scripts(o, true), kind, id, body, o.conditions().ifMatch());
    }

    public void delete(ScriptKind kind, String id, RequestOptions o) {
        catalog.delete(handle.scripts(o, true), kind, id, o.conditions().ifMatch());
    }

    // ---- stored procedures

    /**
     * Executes stored procedure {@code id} in the logical partition of {@code o.partitionKey()} with {@code params}
     * (a JSON array, or empty); {@code logging} returns its {@code console.log} output.
     */
    public ScriptResult execute(String id, byte[] params, boolean logging, RequestOptions o) {
        ContainerInfo c = handle.scripts(o, true);
        ScriptResource sproc = catalog.get(c, ScriptKind.STORED_PROCEDURE, id);
        String args = arguments(params);
        if (o.partitionKey() == null && !c.partitionKey().systemKey()) {
            throw ServiceException.badRequest("PartitionKey value must be supplied for this operation: a stored"
                    + " procedure runs in one logical partition.");
        }
        o.access().checkPartitionKey(o.partitionKey());
        KeyRoute at = handle.route(c, o.partitionKey(), o);
        String[] out = new String[2];
        double charge = run(c, at, o, (txn, run) -> {
            ScriptRuntime.Output r = run.session.run("sproc", sproc, args, null, null, c.selfLink(), c.altLink(),
                    null, logging, run.execution);
            out[0] = r.body();
            out[1] = r.log();
            return null;
        }).charge;
        return new ScriptResult(out[0], logging ? out[1] : null, charge, at.range().id(), engine.lsn(c));
    }

    // ---- writes with triggers

    /** A create, upsert, replace or delete ({@code operation}) with the named pre- and post-triggers around it. */
    public ItemResult write(Triggers.Operation operation, String id, byte[] body, Triggers names, RequestOptions o) {
        ContainerInfo c = operation == Triggers.Operation.CREATE || operation == Triggers.Operation.UPSERT
                ? handle.authorizeAll(o, true) : handle.authorizeItem(o, id, true);
        Triggers triggers = names.resolve(catalog, c, operation);
        ObjectNode doc = body == null ? null : Items.parseItem(body);
        KeyRoute at = doc != null && id == null ? handle.routeWrite(c, doc, o) : handle.route(c, o.partitionKey(), o);
        Charged<ItemResult> r = run(c, at, o, (txn, run) -> {
            ObjectNode input = doc;
            for (ScriptResource pre : triggers.pre()) {
                ScriptRuntime.Output out = run.session.run("pre", pre, null, input == null ? null : input.toString(),
                        null, c.selfLink(), c.altLink(), operation.serviceName(), false, run.execution);
                if (out.request() != null) {
                    input = Json.parseObject(out.request().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            "item");
                }
            }
            // a post-trigger sees the request's body as the pre-triggers left it (the write adds to it in place)
            String request = input == null || triggers.post().isEmpty() ? null : input.toString();
            ItemResult written = triggers.write(txn, operation, id, input, o.conditions());
            run.execution.add(written.work());
            String response = written.item() == null ? null : written.item().jsonString();
            for (ScriptResource post : triggers.post()) {
                run.session.run("post", post, null, request, response, c.selfLink(), c.altLink(),
                        operation.serviceName(), false, run.execution);
            }
            return written;
        });
        return r.value.withCharge(r.charge);
    }

    // ---- the lifecycle

    private record Run(ScriptRuntime.Session session, ScriptExecution execution) {
    }

    private record Charged<T>(T value, double charge) {
    }

    /**
     * Admits the request on the partition, runs {@code work} with a script session over one transaction, commits
     * unless the work outgrew the budget (429), and charges the price of what was done.
     */
    private <T> Charged<T> run(ContainerInfo c, KeyRoute at, RequestOptions o,
            BiFunction<PartitionTxn, Run, T> work) {
        String rangeId = at.range().id();
        double[] charge = new double[1];
        T value = handle.metered(c, rangeId, o, () -> {
            try (ScriptRuntime.Session session = runtime.open()) {
                return items.inPartitionTransaction(at, txn -> {
                    ScriptExecution execution = new ScriptExecution(c, txn, engine.clock(),
                            engine.limits().scriptAcceptWindow(), w -> handle.price(w, o),
                            ru -> capacity.affords(c, rangeId, ru), engine.reads()::parseQuery,
                            q -> evaluation(c, session, q));
                    T result = work.apply(txn, new Run(session, execution));
                    if (execution.outOfBudget()) {
                        throw capacity.outOfBudget();
                    }
                    charge[0] = costs.script(execution.charge());
                    return result;
                });
            }
        });
        capacity.charge(c, rangeId, charge[0]);
        return new Charged<>(value, charge[0]);
    }

    /** How a query inside a script evaluates: with the container's functions when it calls any. */
    private EvalContext evaluation(ContainerInfo c, ScriptRuntime.Session session, SqlQuery q) {
        return q.userFunctionNames().isEmpty() ? EvalContext.of(engine.clock())
                : session.evalContext(engine.clock(), catalog.functions(c, q.userFunctionNames()));
    }

    private static String arguments(byte[] params) {
        if (params == null || params.length == 0) {
            return "[]";
        }
        JsonNode p = Json.parse(params, "stored procedure parameters");
        if (!p.isArray()) {
            throw ServiceException.badRequest("The stored procedure's parameters must be a JSON array.");
        }
        return p.toString();
    }
}
