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
