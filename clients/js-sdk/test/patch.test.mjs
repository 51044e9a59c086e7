// Patch: the operations (add, set, replace, remove, incr, move), sent as a bare array or as {operations},
// conditional patch (412 when the condition is false), If-Match, 404.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid, rejectsWith } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let container;
before(async () => {
  const { database } = await client.databases.create({ id: uid("patch") });
  ({ container } = await database.containers.create({ id: "patch", partitionKey: { paths: ["/pk"] } }));
});

async function fresh() {
  const id = uid("p");
  await container.items.create({ id, pk: "a", n: 5, name: "x", tags: ["t1"], old: true, nested: { a: 1 } });
  return container.item(id, "a");
}

const operations = [
  { op: "incr", path: "/n", value: 2 },
  { op: "set", path: "/name", value: "y" },
  { op: "add", path: "/tags/-", value: "t2" },
  { op: "remove", path: "/old" },
  { op: "replace", path: "/nested/a", value: 9 },
  { op: "add", path: "/added", value: { deep: [1] } },
  { op: "move", from: "/added", path: "/moved" },
];

function checkPatched(doc) {
  assert.equal(doc.n, 7);
  assert.equal(doc.name, "y");
  assert.deepEqual(doc.tags, ["t1", "t2"]);
  assert.equal(doc.old, undefined);
  assert.equal(doc.nested.a, 9);
  assert.equal(doc.added, undefined);
  assert.deepEqual(doc.moved, { deep: [1] });
}

scenario("patch: operations sent as a bare array", async () => {
  const item = await fresh();
  const r = await item.patch(operations);
  assert.equal(r.statusCode, 200);
  checkPatched(r.resource);
  checkPatched((await item.read()).resource);
});

scenario("patch: operations sent as {operations}", async () => {
  const item = await fresh();
  const r = await item.patch({ operations });
  assert.equal(r.statusCode, 200);
  checkPatched(r.resource);
});

scenario("patch: a true condition applies the operations", async () => {
  const item = await fresh();
  const r = await item.patch({ condition: "FROM c WHERE c.n > 3", operations: [{ op: "set", path: "/flag", value: 1 }] });
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.flag, 1);
});

scenario("patch: a false condition gives 412 and changes nothing", async () => {
  const item = await fresh();
  await rejectsWith(item.patch({ condition: "FROM c WHERE c.n > 100", operations: [{ op: "set", path: "/flag", value: 1 }] }), 412);
  assert.equal((await item.read()).resource.flag, undefined);
});

scenario("patch: a stale If-Match gives 412", async () => {
  const item = await fresh();
  const { etag } = await item.read();
  await item.patch({ operations: [{ op: "incr", path: "/n", value: 1 }] });
  await rejectsWith(item.patch({ operations: [{ op: "incr", path: "/n", value: 1 }] }, { accessCondition: { type: "IfMatch", condition: etag } }), 412);
  assert.equal((await item.read()).resource.n, 6);
});

scenario("patch: a missing item gives 404", async () => {
  await rejectsWith(container.item(uid("missing"), "a").patch({ operations: [{ op: "set", path: "/x", value: 1 }] }), 404);
});

scenario("patch: replacing or removing a missing path gives 400", async () => {
  const item = await fresh();
  await rejectsWith(item.patch({ operations: [{ op: "replace", path: "/nope", value: 1 }] }), 400);
  await rejectsWith(item.patch({ operations: [{ op: "remove", path: "/nope" }] }), 400);
});

scenario("patch: incr on a non-number gives 400", async () => {
  const item = await fresh();
  await rejectsWith(item.patch({ operations: [{ op: "incr", path: "/name", value: 1 }] }), 400);
});

scenario("patch: the partition key path cannot be patched", async () => {
  const item = await fresh();
  await rejectsWith(item.patch({ operations: [{ op: "set", path: "/pk", value: "b" }] }), 400);
});
