// Transactional batch (all or nothing in one logical partition) and bulk (executeBulkOperations and the older bulk)
// over a container with several physical partitions.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { BulkOperationType } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, rejectsWith } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let container;
before(async () => {
  const { database } = await client.databases.create({ id: uid("batch") });
  ({ container } = await database.containers.create({ id: "batch", partitionKey: { paths: ["/pk"] } }, { offerThroughput: 12000 }));
});

scenario("batch: create, upsert, read, replace, patch and delete commit together", async () => {
  const pk = uid("pk");
  await container.items.create({ id: "gone", pk });
  await container.items.create({ id: "changed", pk, v: 1 });
  const ops = [
    { operationType: BulkOperationType.Create, resourceBody: { id: "new", pk, v: 1 } },
    { operationType: BulkOperationType.Upsert, resourceBody: { id: "up", pk, v: 1 } },
    { operationType: BulkOperationType.Read, id: "new" },
    { operationType: BulkOperationType.Replace, id: "changed", resourceBody: { id: "changed", pk, v: 2 } },
    { operationType: BulkOperationType.Patch, id: "up", resourceBody: { operations: [{ op: "incr", path: "/v", value: 5 }] } },
    { operationType: BulkOperationType.Delete, id: "gone" },
  ];
  const r = await container.items.batch(ops, pk);
  assert.equal(r.code, 200, "the batch succeeded");
  assert.deepEqual(r.result.map((o) => o.statusCode), [201, 201, 200, 200, 200, 204]);
  assert.equal(r.result[2].resourceBody.id, "new", "the read sees the create before it");
  assert.ok(r.result[0].eTag, "each write reports its etag");
  assert.equal((await container.item("up", pk).read()).resource.v, 6);
  assert.equal((await container.item("changed", pk).read()).resource.v, 2);
  assert.equal((await container.item("gone", pk).read()).statusCode, 404);
});

scenario("batch: one failing operation rolls back the others (207: 409 and 424)", async () => {
  const pk = uid("pk");
  await container.items.create({ id: "exists", pk });
  const ops = [
    { operationType: BulkOperationType.Create, resourceBody: { id: "first", pk } },
    { operationType: BulkOperationType.Create, resourceBody: { id: "exists", pk } },
    { operationType: BulkOperationType.Upsert, resourceBody: { id: "third", pk } },
  ];
  const r = await container.items.batch(ops, pk);
  assert.equal(r.code, 207);
  assert.deepEqual(r.result.map((o) => o.statusCode), [424, 409, 424]);
  assert.equal((await container.item("first", pk).read()).statusCode, 404, "rolled back");
  assert.equal((await container.item("third", pk).read()).statusCode, 404, "never ran");
});

scenario("batch: an operation's stale ifMatch fails the batch with 412", async () => {
  const pk = uid("pk");
  const created = await container.items.create({ id: "x", pk, v: 1 });
  await container.item("x", pk).replace({ id: "x", pk, v: 2 });
  const r = await container.items.batch(
    [
      { operationType: BulkOperationType.Upsert, resourceBody: { id: "y", pk } },
      { operationType: BulkOperationType.Replace, id: "x", resourceBody: { id: "x", pk, v: 3 }, ifMatch: created.etag },
    ],
    pk,
  );
  assert.equal(r.code, 207);
  assert.deepEqual(r.result.map((o) => o.statusCode), [424, 412]);
  assert.equal((await container.item("x", pk).read()).resource.v, 2);
});

scenario("batch: an operation for another partition key is refused", async () => {
  const pk = uid("pk");
  let outcome;
  try {
    outcome = await container.items.batch([{ operationType: BulkOperationType.Create, resourceBody: { id: "z", pk: "elsewhere" } }], pk);
  } catch (e) {
    outcome = e;
  }
  assert.equal(outcome.code >= 400 || outcome.result?.[0]?.statusCode >= 400, true, `refused: ${JSON.stringify(outcome.code)}`);
  assert.equal((await container.item("z", "elsewhere").read()).statusCode, 404);
});

scenario("batch: an operation naming another partition key than the batch's is the service's 400", async () => {
  const pk = uid("pk");
  const ops = [
    { operationType: BulkOperationType.Create, resourceBody: { id: "m1", pk }, partitionKey: pk },
    { operationType: BulkOperationType.Upsert, resourceBody: { id: "m2", pk }, partitionKey: "another" },
  ];
  // the SDK wraps the 400 in an Error of its own ("Batch request error: ..."), without the status
  await assert.rejects(container.items.batch(ops, pk), (err) => {
    assert.ok(err.message.includes("One or more operations within the batch request have a different partition key"
      + " value than the request."), err.message);
    return true;
  });
  assert.equal((await container.item("m1", pk).read()).statusCode, 404, "nothing applied");
  const same = await container.items.batch([{ operationType: BulkOperationType.Create, resourceBody: { id: "m3", pk }, partitionKey: pk }], pk);
  assert.equal(same.result[0].statusCode, 201, "an operation naming the batch's own key runs");
});

scenario("bulk: executeBulkOperations runs creates, reads, upserts, replaces, patches and deletes across partitions", async () => {
  const run = uid("bulk");
  const creates = [];
  for (let i = 0; i < 60; i++) {
    creates.push({ operationType: BulkOperationType.Create, partitionKey: `${run}-${i % 15}`, resourceBody: { id: `i${i}`, pk: `${run}-${i % 15}`, v: i } });
  }
  const created = await container.items.executeBulkOperations(creates);
  assert.equal(created.length, 60);
  assert.deepEqual([...new Set(created.map((r) => r.response?.statusCode ?? r.error?.code))], [201]);

  const mixed = [];
  for (let i = 0; i < 60; i++) {
    const pk = `${run}-${i % 15}`;
    const id = `i${i}`;
    switch (i % 5) {
      case 0: mixed.push({ operationType: BulkOperationType.Read, id, partitionKey: pk }); break;
      case 1: mixed.push({ operationType: BulkOperationType.Upsert, partitionKey: pk, resourceBody: { id, pk, v: -1 } }); break;
      case 2: mixed.push({ operationType: BulkOperationType.Replace, id, partitionKey: pk, resourceBody: { id, pk, v: -2 } }); break;
      case 3: mixed.push({ operationType: BulkOperationType.Patch, id, partitionKey: pk, resourceBody: { operations: [{ op: "incr", path: "/v", value: 1000 }] } }); break;
      default: mixed.push({ operationType: BulkOperationType.Delete, id, partitionKey: pk });
    }
  }
  const results = await container.items.executeBulkOperations(mixed);
  const codes = results.map((r) => r.response?.statusCode ?? r.error?.code);
  assert.deepEqual(codes, mixed.map((_, i) => [200, 200, 200, 200, 204][i % 5]));
  assert.equal(results[0].response.resourceBody.v, 0, "read returns the item");
  const { resources } = await container.items
    .query({ query: "SELECT c.id, c.v FROM c WHERE STARTSWITH(c.pk, @run)", parameters: [{ name: "@run", value: run }] })
    .fetchAll();
  assert.equal(resources.length, 48, "12 deleted");
  for (const doc of resources) {
    const i = Number(doc.id.slice(1));
    assert.equal(doc.v, [i, -1, -2, i + 1000][i % 5], doc.id);
  }
});

scenario("bulk: executeBulkOperations reports a failed operation and runs the rest", async () => {
  const pk = uid("pk");
  await container.items.create({ id: "dup", pk });
  const results = await container.items.executeBulkOperations([
    { operationType: BulkOperationType.Create, partitionKey: pk, resourceBody: { id: "ok1", pk } },
    { operationType: BulkOperationType.Create, partitionKey: pk, resourceBody: { id: "dup", pk } },
    { operationType: BulkOperationType.Read, partitionKey: pk, id: "nope" },
    { operationType: BulkOperationType.Create, partitionKey: pk, resourceBody: { id: "ok2", pk } },
  ]);
  const codes = results.map((r) => r.response?.statusCode ?? r.error?.code);
  assert.deepEqual(codes, [201, 409, 404, 201]);
  assert.equal((await container.item("ok2", pk).read()).statusCode, 200);
});

scenario("bulk: without continueOnError the operations after a failure answer 424; with it they run", async () => {
  // an invalid ttl is refused even where the container has no TTL (the JavaScript SDK's own bulk spec)
  const pk = uid("pk");
  const stopped = await container.items.bulk([
    { operationType: BulkOperationType.Create, resourceBody: { ttl: -10, pk } },
    { operationType: BulkOperationType.Create, resourceBody: { id: "after1", pk } },
  ], { continueOnError: false });
  assert.deepEqual(stopped.map((r) => r.statusCode), [400, 424]);
  assert.equal((await container.item("after1", pk).read()).statusCode, 404, "not run");
  const went = await container.items.bulk([
    { operationType: BulkOperationType.Create, resourceBody: { ttl: -10, pk } },
    { operationType: BulkOperationType.Create, resourceBody: { id: "after2", pk } },
  ], { continueOnError: true });
  assert.deepEqual(went.map((r) => r.statusCode), [400, 201]);
});

scenario("bulk: the older bulk() API creates items across partitions", async () => {
  const run = uid("old");
  const ops = [];
  for (let i = 0; i < 30; i++) {
    ops.push({ operationType: BulkOperationType.Create, resourceBody: { id: `o${i}`, pk: `${run}-${i % 10}` } });
  }
  const results = await container.items.bulk(ops);
  assert.deepEqual([...new Set(results.map((r) => r.statusCode))], [201]);
  assert.equal((await container.item("o7", `${run}-7`).read()).statusCode, 200);
});
