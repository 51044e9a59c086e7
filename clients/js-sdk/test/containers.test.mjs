// Containers: create with a partition key, read, replace the indexing policy, list, query, delete; unique keys,
// computed properties, several physical partitions, delete by partition key.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid, rejectsWith, eventually } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("containers") }));
});

scenario("containers: create echoes the partition key with kind Hash, version 1 when none is asked", async () => {
  // the SDK sends no version; the service makes such a container V1 (the Java SDK's CosmosContainerTest reads V1
  // EPKs back, and its own code takes an absent version for V1)
  const id = uid("c");
  const r = await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  assert.equal(r.statusCode, 201);
  assert.equal(r.resource.id, id);
  assert.deepEqual(r.resource.partitionKey.paths, ["/pk"]);
  assert.equal(r.resource.partitionKey.kind, "Hash");
  assert.equal(r.resource.partitionKey.version, 1, "version is the number 1");
  assert.ok(r.resource._rid && r.resource._self && r.resource._etag, "system properties");
  const v2 = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"], version: 2 } });
  assert.equal(v2.resource.partitionKey.version, 2, "an asked-for version 2 is kept");
});

scenario("containers: read returns the definition with a default indexing policy", async () => {
  const id = uid("c");
  await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  const r = await db.container(id).read();
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.id, id);
  assert.equal(r.resource.indexingPolicy.indexingMode.toLowerCase(), "consistent");
  assert.equal(r.resource.indexingPolicy.automatic, true);
  assert.ok(r.resource.indexingPolicy.includedPaths.some((p) => p.path === "/*"), "includes /*");
  await rejectsWith(db.container(uid("missing")).read(), 404);
});

scenario("containers: a read with populateQuotaInfo reports the items and their size", async () => {
  const id = uid("c");
  const { container } = await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  for (let i = 0; i < 5; i++) {
    await container.items.create({ id: `i${i}`, pk: `k${i % 2}`, pad: "x".repeat(3000) });
  }
  const r = await container.read({ populateQuotaInfo: true });
  // "key=value;key=value", the same keys in both headers (the Java SDK pairs them by position)
  const parse = (header) =>
    Object.fromEntries(header.split(";").filter(Boolean).map((kv) => kv.split("=")).map(([k, v]) => [k, Number(v)]));
  const quota = parse(r.headers["x-ms-resource-quota"]);
  const usage = parse(r.headers["x-ms-resource-usage"]);
  assert.deepEqual(Object.keys(usage), Object.keys(quota));
  assert.equal(usage.documentsCount, 5);
  assert.equal(quota.documentsCount, -1);
  assert.ok(usage.documentsSize >= 15 && usage.documentsSize <= 20, `documentsSize ${usage.documentsSize} KB`);
  assert.ok(quota.collectionSize > usage.collectionSize, "a quota above the usage");
  assert.equal((await container.read()).headers["x-ms-resource-usage"], undefined, "only when asked");
});

scenario("containers: creating an existing id gives 409", async () => {
  const id = uid("c");
  await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  await rejectsWith(db.containers.create({ id, partitionKey: { paths: ["/pk"] } }), 409);
});

scenario("containers: createIfNotExists returns the existing container", async () => {
  const id = uid("c");
  const first = await db.containers.createIfNotExists({ id, partitionKey: { paths: ["/pk"] } });
  assert.equal(first.statusCode, 201);
  const second = await db.containers.createIfNotExists({ id, partitionKey: { paths: ["/pk"] } });
  assert.equal(second.statusCode, 200);
  assert.equal(second.resource._rid, first.resource._rid);
});

scenario("containers: replace changes the indexing policy", async () => {
  const id = uid("c");
  const { resource } = await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  const indexingPolicy = {
    indexingMode: "consistent",
    automatic: true,
    includedPaths: [{ path: "/*" }],
    excludedPaths: [{ path: "/secret/?" }, { path: '/"_etag"/?' }],
  };
  const r = await db.container(id).replace({ ...resource, indexingPolicy });
  assert.equal(r.statusCode, 200);
  assert.ok(r.resource.indexingPolicy.excludedPaths.some((p) => p.path === "/secret/?"), "in the reply");
  const read = await db.container(id).read();
  assert.ok(read.resource.indexingPolicy.excludedPaths.some((p) => p.path === "/secret/?"), "on a later read");
  assert.notEqual(read.resource._etag, resource._etag, "a new etag");
});

scenario("containers: replace may not change the partition key", async () => {
  const id = uid("c");
  const { resource } = await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  await rejectsWith(db.container(id).replace({ ...resource, partitionKey: { paths: ["/other"], kind: "Hash", version: 2 } }), 400);
});

scenario("containers: readAll and query list the containers", async () => {
  const ids = [uid("l"), uid("l")];
  for (const id of ids) {
    await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  }
  const { resources } = await db.containers.readAll().fetchAll();
  for (const id of ids) {
    assert.ok(resources.some((c) => c.id === id), `${id} listed`);
  }
  const q = await db.containers
    .query({ query: "SELECT * FROM root r WHERE r.id = @id", parameters: [{ name: "@id", value: ids[1] }] })
    .fetchAll();
  assert.deepEqual(q.resources.map((c) => c.id), [ids[1]]);
});

scenario("containers: delete gives 204 and the container and its items are gone", async () => {
  const id = uid("c");
  const { container } = await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  await container.items.create({ id: "x", pk: "a" });
  const r = await container.delete();
  assert.equal(r.statusCode, 204);
  await rejectsWith(container.read(), 404);
  // the SDK answers a point read's 404 as a response, not an error
  await rejectsWith(container.items.upsert({ id: "y", pk: "a" }), 404);
  const again = await db.containers.create({ id, partitionKey: { paths: ["/pk"] } });
  assert.equal((await again.container.item("x", "a").read()).statusCode, 404, "a new container of the same id is empty");
});

scenario("containers: 12000 RU/s gives several physical partitions that tile the key space", async () => {
  const { container } = await db.containers.create({ id: uid("wide"), partitionKey: { paths: ["/pk"] } }, { offerThroughput: 12000 });
  const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
  assert.ok(ranges.length >= 2, `several ranges, got ${ranges.length}`);
  const bounds = ranges.map((r) => [r.minInclusive, r.maxExclusive]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  assert.equal(bounds[0][0], "");
  assert.equal(bounds[bounds.length - 1][1], "FF");
  for (let i = 1; i < bounds.length; i++) {
    assert.equal(bounds[i][0], bounds[i - 1][1], "contiguous");
  }
  const feedRanges = await container.getFeedRanges();
  assert.equal(feedRanges.length, ranges.length);
});

scenario("containers: a unique key policy refuses a duplicate within a logical partition with 409", async () => {
  const { container } = await db.containers.create({
    id: uid("uk"),
    partitionKey: { paths: ["/pk"] },
    uniqueKeyPolicy: { uniqueKeys: [{ paths: ["/email"] }] },
  });
  await container.items.create({ id: "1", pk: "a", email: "x@example.com" });
  await rejectsWith(container.items.create({ id: "2", pk: "a", email: "x@example.com" }), 409);
  await container.items.create({ id: "3", pk: "b", email: "x@example.com" });
});

scenario("containers: computed properties are stored and queryable", async () => {
  const computedProperties = [{ name: "cp_lower", query: "SELECT VALUE LOWER(c.name) FROM c" }];
  const { container, resource } = await db.containers.create({
    id: uid("cp"),
    partitionKey: { paths: ["/pk"] },
    computedProperties,
  });
  assert.deepEqual(resource.computedProperties, computedProperties);
  await container.items.create({ id: "1", pk: "a", name: "Alice" });
  await container.items.create({ id: "2", pk: "a", name: "BOB" });
  const { resources } = await container.items
    .query("SELECT VALUE c.cp_lower FROM c WHERE c.cp_lower = 'bob'")
    .fetchAll();
  assert.deepEqual(resources, ["bob"]);
  const { resource: item } = await container.item("1", "a").read();
  assert.equal(item.cp_lower, undefined, "computed properties are not stored in the item");
});

scenario("containers: deleteAllItemsForPartitionKey removes one logical partition", async () => {
  const { container } = await db.containers.create({ id: uid("dpk"), partitionKey: { paths: ["/pk"] } });
  for (let i = 0; i < 5; i++) {
    await container.items.create({ id: `a${i}`, pk: "a" });
    await container.items.create({ id: `b${i}`, pk: "b" });
  }
  await container.deleteAllItemsForPartitionKey("a");
  const count = async (pk) =>
    (await container.items.query("SELECT VALUE COUNT(1) FROM c", { partitionKey: pk }).fetchAll()).resources[0];
  assert.equal(await eventually(async () => (await count("a")) === 0), true, "partition a emptied");
  assert.equal(await count("b"), 5, "partition b untouched");
});

scenario("containers: after deleteAllItemsForPartitionKey the items are gone at once and an id can be reused", async () => {
  const { container } = await db.containers.create({ id: uid("dpk"), partitionKey: { paths: ["/pk"] } });
  for (let i = 0; i < 3; i++) {
    await container.items.create({ id: `a${i}`, pk: "a", v: "old" });
  }
  const r = await container.deleteAllItemsForPartitionKey("a");
  assert.equal(r.statusCode, 200);
  assert.equal((await container.item("a0", "a").read()).statusCode, 404, "a point read at once");
  const { resources } = await container.items.query("SELECT * FROM c", { partitionKey: "a" }).fetchAll();
  assert.deepEqual(resources, [], "a query at once");
  assert.equal((await container.items.create({ id: "a0", pk: "a", v: "new" })).statusCode, 201, "no conflict");
  assert.equal((await container.item("a0", "a").read()).resource.v, "new");
});

// container.spec.ts ("Bad partition key definition", hierarchical): the message names the path the service refused
scenario("containers: a hierarchical key path without its leading '/' is refused with the service's sentence", async () => {
  const e = await rejectsWith(db.containers.create({
    id: uid("bad"),
    indexingPolicy: { indexingMode: "consistent" },
    partitionKey: { paths: ["id", "/id2"], version: 2, kind: "MultiHash" },
  }), 400);
  assert.ok(e.message.includes("The partition key component definition path 'id' could not be accepted"), e.message);
});
