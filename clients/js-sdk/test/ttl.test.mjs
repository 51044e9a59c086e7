// Time to live: a container's defaultTtl, an item's own ttl, ttl -1 (never), and ttl without a container default;
// an invalid ttl in bulk.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { BulkOperationType } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, eventually, sleep, rejectsWith } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("ttl") }));
});

const status = async (container, id, pk) => (await container.item(id, pk).read()).statusCode;

scenario("ttl: items expire after the container's defaultTtl", async () => {
  const { container, resource } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] }, defaultTtl: 2 });
  assert.equal(resource.defaultTtl, 2);
  await container.items.create({ id: "a", pk: "k" });
  assert.equal(await status(container, "a", "k"), 200, "readable at first");
  assert.equal(await eventually(async () => (await status(container, "a", "k")) === 404, { timeoutMs: 15_000 }), true, "expired");
  const { resources } = await container.items.query("SELECT * FROM c").fetchAll();
  assert.deepEqual(resources, [], "queries do not see it");
});

scenario("ttl: an item's own ttl overrides the container default; ttl -1 never expires", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] }, defaultTtl: 3600 });
  await container.items.create({ id: "short", pk: "k", ttl: 2 });
  await container.items.create({ id: "forever", pk: "k", ttl: -1 });
  await container.items.create({ id: "default", pk: "k" });
  assert.equal(await eventually(async () => (await status(container, "short", "k")) === 404), true, "the short one expired");
  assert.equal(await status(container, "forever", "k"), 200);
  assert.equal(await status(container, "default", "k"), 200);
});

scenario("ttl: with defaultTtl -1 only items with a ttl expire", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] }, defaultTtl: -1 });
  await container.items.create({ id: "short", pk: "k", ttl: 1 });
  await container.items.create({ id: "kept", pk: "k" });
  assert.equal(await eventually(async () => (await status(container, "short", "k")) === 404), true, "expired");
  assert.equal(await status(container, "kept", "k"), 200);
});

scenario("ttl: an item ttl is ignored when the container has no defaultTtl", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] } });
  await container.items.create({ id: "a", pk: "k", ttl: 1 });
  await sleep(2500);
  assert.equal(await status(container, "a", "k"), 200);
});

scenario("ttl: a write restarts the clock", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] }, defaultTtl: 4 });
  // _ts has whole seconds: without the restart the item is gone 5 s after its create, with it not before 6 s
  await container.items.create({ id: "a", pk: "k", v: 1 });
  await sleep(2500);
  await container.item("a", "k").replace({ id: "a", pk: "k", v: 2 });
  await sleep(2500);
  assert.equal(await status(container, "a", "k"), 200, "alive 5 s after its create, 2.5 s after the replace");
  assert.equal(await eventually(async () => (await status(container, "a", "k")) === 404), true, "then expires");
});

scenario("ttl: replacing the container turns defaultTtl on", async () => {
  const { container, resource } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] } });
  await container.items.create({ id: "a", pk: "k" });
  const r = await container.replace({ ...resource, defaultTtl: 1 });
  assert.equal(r.resource.defaultTtl, 1);
  assert.equal(await eventually(async () => (await status(container, "a", "k")) === 404), true, "expired");
});

scenario("ttl: a bulk create with an invalid ttl fails as a plain create does", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] }, defaultTtl: -1 });
  const plain = await rejectsWith(container.items.create({ id: "zero", pk: "k", ttl: 0 }), 400);
  const [result] = await container.items.executeBulkOperations([
    { operationType: BulkOperationType.Create, partitionKey: "k", resourceBody: { id: "zero", pk: "k", ttl: 0 } },
  ]);
  assert.equal(result.error?.code, 400);
  // the same message proper; the plain request's ends with its activity id's line
  assert.equal(result.error?.message, plain.body.message.split("\r\nActivityId: ")[0]);
  assert.equal((await container.item("zero", "k").read()).statusCode, 404);
});
