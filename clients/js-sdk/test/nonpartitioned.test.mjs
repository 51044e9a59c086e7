// Containers created without a partition key (issue 14), as the SDK's own functional test
// (test/public/functional/NonPartitionedContainer.spec.ts) makes them: a client whose plugin strips the partition key
// from the container body and sends the old API version 2018-06-18. The current API shows such a container with the
// system key {paths:["/_partitionKey"], kind:"Hash", systemKey:true}; the SDK then sends [] for an undefined key and
// for an item without _partitionKey (extractPartitionKeys, undefinedPartitionKey).
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { ChangeFeedStartFrom, Constants, HTTPMethod, PluginOn, ResourceType, StatusCodes } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, rejectsWith, describe, sorted } from "../lib/support.mjs";

after(disposeClients);

/** A client that creates containers from {id} alone, at the given API version. */
const keylessClient = (version) =>
  newClient({
    plugins: [
      {
        on: PluginOn.request,
        plugin: (context, diagNode, next) => {
          if (context.resourceType === ResourceType.container && context.method === HTTPMethod.post) {
            context.body = JSON.stringify({ id: JSON.parse(context.body).id });
          }
          context.headers[Constants.HttpHeaders.Version] = version;
          return next(context);
        },
      },
    ],
  });

const legacyClient = keylessClient("2018-06-18");
const client = newClient();
let dbId;
before(async () => {
  ({ database: { id: dbId } } = await client.databases.create({ id: uid("np") }));
});

/** A fresh non-partitioned container, seen through the ordinary client. */
async function legacyContainer() {
  const { container } = await legacyClient.database(dbId).containers.create({ id: uid("fixed") });
  return client.database(dbId).container(container.id);
}

const ids = (rows) => sorted(rows.map((r) => r.id));

scenario("non-partitioned container: the current API shows the system key and one range", async () => {
  const container = await legacyContainer();
  const { resource } = await container.read();
  assert.deepEqual(resource.partitionKey.paths, ["/_partitionKey"]);
  assert.equal(resource.partitionKey.kind, "Hash");
  assert.equal(resource.partitionKey.systemKey, true);
  const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
  assert.equal(ranges.length, 1);
});

scenario("non-partitioned container: the current API version refuses a body without a partition key", async () => {
  const e = await rejectsWith(keylessClient(Constants.CurrentVersion).database(dbId).containers.create({ id: uid("nokey") }), 400);
  assert.match(String(e.body?.message ?? e.message), /A Partition key definition is not specified in the request/, describe(e));
});

scenario("non-partitioned container: item CRUD with an undefined partition key", async () => {
  const container = await legacyContainer();
  const { resources: none } = await container.items.readAll().fetchAll();
  assert.deepEqual(none, []);
  const { resource: a } = await container.items.create({ id: "a", name: "sample", key: "value" });
  assert.equal(a.name, "sample");
  assert.equal((await container.item("a", undefined).read()).resource.id, "a");
  const { resource: b } = await container.items.upsert({ id: "b", name: "sample" });
  assert.equal(b.name, "sample");
  const { resource: replaced } = await container.item("a", undefined).replace({ id: "a", newProp: "baz" });
  assert.equal(replaced.newProp, "baz");
  const { resources: all } = await container.items.readAll().fetchAll();
  assert.deepEqual(ids(all), ["a", "b"]);
  const { resources: queried } = await container.items.query("SELECT * FROM root r").fetchAll();
  assert.deepEqual(ids(queried), ["a", "b"]);
  await container.item("a", undefined).delete();
  const gone = await container.item("a", undefined).read();
  assert.equal(gone.statusCode, StatusCodes.NotFound);
  assert.equal(gone.resource, undefined);
});

scenario("non-partitioned container: an item with _partitionKey is in that logical partition", async () => {
  const container = await legacyContainer();
  await container.items.create({ id: "k", _partitionKey: "tenant", v: 1 });
  await container.items.create({ id: "k", v: 2 });
  assert.equal((await container.item("k", "tenant").read()).resource.v, 1);
  assert.equal((await container.item("k", undefined).read()).resource.v, 2);
  const { resources } = await container.items.query("SELECT * FROM c", { partitionKey: "tenant" }).fetchAll();
  assert.deepEqual(resources.map((r) => r.v), [1]);
  const { resources: all } = await container.items.query("SELECT VALUE c.v FROM c").fetchAll();
  assert.deepEqual(sorted(all), [1, 2]);
  await container.item("k", "tenant").delete();
  assert.equal((await container.item("k", "tenant").read()).statusCode, StatusCodes.NotFound);
  assert.equal((await container.item("k", undefined).read()).statusCode, StatusCodes.Ok);
});

const operations = () => [
  { operationType: "Create", resourceBody: { id: "1", key: 1 } },
  { operationType: "Upsert", resourceBody: { id: "2", key: 2 } },
  { operationType: "Replace", id: "1", resourceBody: { id: "1", key: 2 } },
  { operationType: "Delete", id: "2" },
  { operationType: "Read", id: "1" },
  { operationType: "Patch", id: "1", resourceBody: { operations: [{ op: "incr", value: 1, path: "/key" }] } },
];
const expectedStatuses = [201, 201, 200, 204, 200, 200];

scenario("non-partitioned container: bulk operations", async () => {
  const container = await legacyContainer();
  const response = await container.items.bulk(operations());
  assert.deepEqual(response.map((r) => r.statusCode), expectedStatuses);
  assert.equal((await container.item("1", undefined).read()).resource.key, 3);
});

scenario("non-partitioned container: batch operations", async () => {
  const container = await legacyContainer();
  const response = await container.items.batch(operations());
  assert.deepEqual(response.result.map((r) => r.statusCode), expectedStatuses);
});

scenario("non-partitioned container: change feed from the beginning", async () => {
  const container = await legacyContainer();
  await container.items.create({ id: "p" });
  await container.items.create({ id: "q", _partitionKey: "tenant" });
  const it = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning() });
  const seen = [];
  while (it.hasMoreResults) {
    const page = await it.readNext();
    if (page.statusCode === StatusCodes.NotModified) {
      break;
    }
    seen.push(...page.result);
  }
  assert.deepEqual(ids(seen), ["p", "q"]);
});

scenario("non-partitioned container: a stored procedure runs under the undefined key", async () => {
  const container = await legacyContainer();
  const body = function (id) {
    const c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id }, (e) => {
      if (e) throw e;
    });
    getContext().getResponse().setBody(`made ${id}`);
  };
  await container.scripts.storedProcedures.create({ id: "make", body });
  const { resource } = await container.scripts.storedProcedure("make").execute(undefined, ["s1"]);
  assert.equal(resource, "made s1");
  assert.equal((await container.item("s1", undefined).read()).statusCode, StatusCodes.Ok);
});
