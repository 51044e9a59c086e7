// Hierarchical partition keys (MultiHash, version 2) over several physical partitions: create, point read, queries with
// a full key and a prefix key, change feed for a prefix, batch, and items missing a key component.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { BulkOperationType, ChangeFeedStartFrom, PartitionKeyBuilder, PartitionKeyDefinitionVersion, PartitionKeyKind, StatusCodes } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, rejectsWith, sorted } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
let container;
const docs = [];
for (const t of ["t1", "t2", "t3"]) {
  for (const u of ["u1", "u2", "u3"]) {
    for (const s of ["s1", "s2"]) {
      docs.push({ id: `${t}-${u}-${s}`, tenantId: t, userId: u, sessionId: s, n: docs.length });
    }
  }
}
const hpk = (paths) => ({ paths, kind: PartitionKeyKind.MultiHash, version: PartitionKeyDefinitionVersion.V2 });
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("hpk") }));
  ({ container } = await db.containers.create({ id: "h", partitionKey: hpk(["/tenantId", "/userId", "/sessionId"]) }, { offerThroughput: 24000 }));
  for (const d of docs) {
    await container.items.create(d);
  }
});

const ids = (rows) => sorted(rows.map((r) => r.id));
const expected = (pred) => sorted(docs.filter(pred).map((d) => d.id));

scenario("hierarchical keys: create echoes the MultiHash definition", async () => {
  const { resource } = await container.read();
  assert.equal(resource.partitionKey.kind, "MultiHash");
  assert.equal(resource.partitionKey.version, 2);
  assert.deepEqual(resource.partitionKey.paths, ["/tenantId", "/userId", "/sessionId"]);
  const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
  assert.ok(ranges.length >= 4, `ranges: ${ranges.length}`);
});

scenario("hierarchical keys: point read, replace and delete with the full key", async () => {
  const r = await container.item("t2-u3-s1", ["t2", "u3", "s1"]).read();
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.userId, "u3");
  assert.equal((await container.item("t2-u3-s1", ["t2", "u3", "s2"]).read()).statusCode, 404, "wrong last component");
  const id = uid("x");
  await container.items.create({ id, tenantId: "t9", userId: "u9", sessionId: "s9", v: 1 });
  const replaced = await container.item(id, ["t9", "u9", "s9"]).replace({ id, tenantId: "t9", userId: "u9", sessionId: "s9", v: 2 });
  assert.equal(replaced.resource.v, 2);
  assert.equal((await container.item(id, ["t9", "u9", "s9"]).delete()).statusCode, 204);
});

scenario("hierarchical keys: query with the full key", async () => {
  const { resources } = await container.items.query("SELECT * FROM c", { partitionKey: ["t1", "u2", "s2"] }).fetchAll();
  assert.deepEqual(ids(resources), ["t1-u2-s2"]);
});

scenario("hierarchical keys: query with a one-component prefix key", async () => {
  const { resources } = await container.items.query("SELECT * FROM c", { partitionKey: ["t3"] }).fetchAll();
  assert.deepEqual(ids(resources), expected((d) => d.tenantId === "t3"));
});

scenario("hierarchical keys: query with a two-component prefix key", async () => {
  const { resources } = await container.items.query("SELECT * FROM c", { partitionKey: ["t2", "u1"] }).fetchAll();
  assert.deepEqual(ids(resources), expected((d) => d.tenantId === "t2" && d.userId === "u1"));
});

scenario("hierarchical keys: an aggregate and ORDER BY within a prefix", async () => {
  const count = await container.items.query("SELECT VALUE COUNT(1) FROM c", { partitionKey: ["t1"] }).fetchAll();
  assert.deepEqual(count.resources, [6]);
  const ordered = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n DESC", { partitionKey: ["t1", "u3"] }).fetchAll();
  assert.deepEqual(ordered.resources, docs.filter((d) => d.tenantId === "t1" && d.userId === "u3").map((d) => d.n).reverse());
});

scenario("hierarchical keys: cross-partition query filtering on the first level", async () => {
  const { resources } = await container.items.query("SELECT * FROM c WHERE c.tenantId = 't1' AND c.sessionId = 's1'").fetchAll();
  assert.deepEqual(ids(resources), expected((d) => d.tenantId === "t1" && d.sessionId === "s1"));
});

scenario("hierarchical keys: change feed for a prefix key", async () => {
  const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(["t2"]) });
  const seen = [];
  for (let i = 0; i < 50; i++) {
    const r = await iterator.readNext();
    if (r.statusCode === StatusCodes.NotModified) {
      break;
    }
    seen.push(...r.result);
  }
  assert.deepEqual(ids(seen), expected((d) => d.tenantId === "t2"));
});

scenario("hierarchical keys: transactional batch with the full key", async () => {
  const key = ["tb", "ub", "sb"];
  const body = (id) => ({ id, tenantId: "tb", userId: "ub", sessionId: "sb" });
  const r = await container.items.batch(
    [
      { operationType: BulkOperationType.Create, resourceBody: body("b1") },
      { operationType: BulkOperationType.Upsert, resourceBody: body("b2") },
      { operationType: BulkOperationType.Read, id: "b1" },
    ],
    key,
  );
  assert.deepEqual(r.result.map((o) => o.statusCode), [201, 201, 200]);
});

scenario("hierarchical keys: bulk across tenants", async () => {
  const run = uid("bulk");
  const ops = [];
  for (let i = 0; i < 20; i++) {
    const key = [`${run}-${i % 5}`, `u${i % 2}`, "s"];
    ops.push({ operationType: BulkOperationType.Create, partitionKey: key, resourceBody: { id: `b${i}`, tenantId: key[0], userId: key[1], sessionId: key[2] } });
  }
  const results = await container.items.executeBulkOperations(ops);
  assert.deepEqual([...new Set(results.map((r) => r.response?.statusCode ?? r.error?.code))], [201]);
});

scenario("hierarchical keys: an item missing its last key component is written and read", async () => {
  const { container: two } = await db.containers.create({ id: uid("h2"), partitionKey: hpk(["/tenantId", "/userId"]) });
  const created = await two.items.create({ id: "partial", tenantId: "t1", v: 1 });
  assert.equal(created.statusCode, 201);
  const key = new PartitionKeyBuilder().addValue("t1").addNoneValue().build();
  const r = await two.item("partial", key).read();
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.v, 1);
  const { resources } = await two.items.query("SELECT * FROM c", { partitionKey: ["t1"] }).fetchAll();
  assert.deepEqual(ids(resources), ["partial"]);
});

scenario("hierarchical keys: deleteAllItemsForPartitionKey needs the full key", async () => {
  const { container: two } = await db.containers.create({ id: uid("hd"), partitionKey: hpk(["/tenantId", "/userId"]) });
  await two.items.create({ id: "1", tenantId: "t1", userId: "u1" });
  await two.items.create({ id: "2", tenantId: "t1", userId: "u2" });
  await rejectsWith(two.deleteAllItemsForPartitionKey(["t1"]), 400);
  assert.equal((await two.deleteAllItemsForPartitionKey(["t1", "u1"])).statusCode, 200);
  const { resources } = await two.items.query("SELECT * FROM c").fetchAll();
  assert.deepEqual(ids(resources), ["2"]);
});

scenario("hierarchical keys: a wrong-length key on a point read is refused", async () => {
  await rejectsWith(container.items.upsert({ id: "bad", tenantId: "t1", userId: "u1", sessionId: "s1" }, {}).then(() =>
    container.item("bad", ["t1", "u1"]).replace({ id: "bad", tenantId: "t1", userId: "u1", sessionId: "s1" })), 400);
});
