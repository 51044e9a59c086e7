// Server-side JavaScript: stored procedures, pre-triggers and user-defined functions; and a Session client.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { TriggerOperation, TriggerType } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, rejectsWith } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let container;
before(async () => {
  const { database } = await client.databases.create({ id: uid("scripts") });
  ({ container } = await database.containers.create({ id: "s", partitionKey: { paths: ["/pk"] } }));
});

scenario("scripts: a stored procedure is created, listed and executed in a partition", async () => {
  const body = function (prefix, n) {
    const c = getContext().getCollection();
    let done = 0;
    for (let i = 0; i < n; i++) {
      c.createDocument(c.getSelfLink(), { id: prefix + i, pk: "sp", i }, (err) => {
        if (err) throw err;
        if (++done === n) getContext().getResponse().setBody({ created: done });
      });
    }
  };
  await container.scripts.storedProcedures.create({ id: "bulkCreate", body });
  const { resources } = await container.scripts.storedProcedures.readAll().fetchAll();
  assert.deepEqual(resources.map((s) => s.id), ["bulkCreate"]);
  const r = await container.scripts.storedProcedure("bulkCreate").execute("sp", ["x", 3]);
  assert.deepEqual(r.resource, { created: 3 });
  assert.equal((await container.item("x2", "sp").read()).resource.i, 2);
});

scenario("scripts: a stored procedure that throws gives 400 and writes nothing", async () => {
  const body = function () {
    const c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id: "never", pk: "sp2" }, () => {
      throw new Error("boom");
    });
  };
  await container.scripts.storedProcedures.create({ id: "fails", body });
  await rejectsWith(container.scripts.storedProcedure("fails").execute("sp2", []), 400);
  assert.equal((await container.item("never", "sp2").read()).statusCode, 404, "rolled back");
});

scenario("scripts: a pre-trigger changes the item being created", async () => {
  const body = function () {
    const req = getContext().getRequest();
    const doc = req.getBody();
    doc.stamped = true;
    req.setBody(doc);
  };
  await container.scripts.triggers.create({ id: "stamp", body, triggerType: TriggerType.Pre, triggerOperation: TriggerOperation.Create });
  const r = await container.items.create({ id: uid("t"), pk: "tr" }, { preTriggerInclude: ["stamp"] });
  assert.equal(r.resource.stamped, true);
  const plain = await container.items.create({ id: uid("t"), pk: "tr" });
  assert.equal(plain.resource.stamped, undefined, "only when included");
});

scenario("scripts: the response's values and a formatted script log", async () => {
  const append = function () {
    for (let i = 0; i < 10; i++) getContext().getResponse().appendValue("Body", i);
  };
  await container.scripts.storedProcedures.create({ id: "appendValue", body: append });
  const appended = await container.scripts.storedProcedure("appendValue").execute("sp3", []);
  assert.equal(appended.resource, "0123456789");
  const log = function () {
    console.log("The value of %s is %s.", "x", 1);
    console.log("%d%% of %j", 50, { a: 1 }, "and more");
    getContext().getResponse().setBody("Success!");
  };
  await container.scripts.storedProcedures.create({ id: "logs", body: log });
  const logged = await container.scripts.storedProcedure("logs").execute("sp3", [], { enableScriptLogging: true });
  assert.equal(logged.resource, "Success!");
  assert.equal(decodeURIComponent(logged.headers["x-ms-documentdb-script-log-results"]),
    "The value of x is 1.\n50% of {\"a\":1} and more");
  const quiet = await container.scripts.storedProcedure("logs").execute("sp3", []);
  assert.equal(quiet.headers["x-ms-documentdb-script-log-results"], undefined);
});

scenario("scripts: an async stored procedure awaits its promises, and Context.abort rolls back", async () => {
  const body = function (n, abortAfter) {
    const c = getContext().getCollection();
    const create = (doc) => new Promise((resolve, reject) => {
      c.createDocument(c.getSelfLink(), doc, (err, d) => (err ? reject(err) : resolve(d)));
    });
    async function main() {
      for (let i = 0; i < n; i++) {
        await create({ id: "aw" + i, pk: "aw" });
        if (i + 1 === abortAfter) getContext().abort(new Error("abort after " + abortAfter));
      }
      getContext().getResponse().setBody({ written: n });
    }
    main().catch((e) => getContext().abort(e));
  };
  await container.scripts.storedProcedures.create({ id: "awaits", body });
  await rejectsWith(container.scripts.storedProcedure("awaits").execute("aw", [3, 2]), 400);
  assert.equal((await container.item("aw0", "aw").read()).statusCode, 404, "rolled back");
  const r = await container.scripts.storedProcedure("awaits").execute("aw", [3, 0]);
  assert.deepEqual(r.resource, { written: 3 });
  assert.equal((await container.item("aw2", "aw").read()).statusCode, 200);
});

scenario("scripts: a post-trigger sees the request as the pre-trigger left it; a trigger's operation must match", async () => {
  const { container: plain } = await container.database.containers.create({ id: uid("trig") });
  const stored = await plain.scripts.triggers.create({ id: "verbatim", body: "serverScript() { var x = 10; }",
    triggerType: TriggerType.Pre, triggerOperation: TriggerOperation.All });
  assert.equal(stored.resource.body, "serverScript() { var x = 10; }", "a body is kept as given, compiled when run");
  await plain.scripts.triggers.create({ id: "upper", triggerType: TriggerType.Pre, triggerOperation: TriggerOperation.All,
    body: function () {
      const item = getContext().getRequest().getBody();
      item.id = item.id.toUpperCase() + "t1";
      getContext().getRequest().setBody(item);
    } });
  await plain.scripts.triggers.create({ id: "check", triggerType: TriggerType.Post, triggerOperation: TriggerOperation.All,
    body: function () {
      if (getContext().getRequest().getBody().id !== "TESTING POST TRIGGERt1") throw "request mismatch";
      if (getContext().getResponse().getBody().id !== "TESTING POST TRIGGERt1") throw "response mismatch";
    } });
  await plain.scripts.triggers.create({ id: "onDelete", body: "function () { }", triggerType: TriggerType.Post,
    triggerOperation: TriggerOperation.Delete });
  const r = await plain.items.create({ id: "testing post trigger" }, { preTriggerInclude: "upper", postTriggerInclude: "check" });
  assert.equal(r.resource.id, "TESTING POST TRIGGERt1");
  await rejectsWith(plain.items.create({ id: "optype" }, { postTriggerInclude: "onDelete" }), 400);
});

scenario("scripts: a user-defined function is used in a query", async () => {
  await container.scripts.userDefinedFunctions.create({ id: "double", body: "function (x) { return x * 2; }" });
  await container.items.create({ id: "u1", pk: "udf", n: 21 });
  const { resources } = await container.items.query("SELECT VALUE udf.double(c.n) FROM c WHERE c.pk = 'udf'").fetchAll();
  assert.deepEqual(resources, [42]);
});

scenario("consistency: a Session client gets session tokens and reads its own writes", async () => {
  const session = newClient({ consistencyLevel: "Session" });
  const docs = session.database(container.database.id).container(container.id);
  const id = uid("s");
  const created = await docs.items.create({ id, pk: "session", v: 1 });
  assert.ok(created.headers["x-ms-session-token"], "a session token");
  await docs.item(id, "session").replace({ id, pk: "session", v: 2 });
  const r = await docs.item(id, "session").read();
  assert.equal(r.resource.v, 2);
  const { resources } = await docs.items.query("SELECT VALUE c.v FROM c", { partitionKey: "session" }).fetchAll();
  assert.deepEqual(resources, [2]);
});
