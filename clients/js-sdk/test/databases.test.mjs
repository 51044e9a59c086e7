// Databases: create, read, list, query, delete.
import { after } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid, rejectsWith } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();

scenario("account: the database account advertises this endpoint", async () => {
  const { resource } = await client.getDatabaseAccount();
  assert.ok(resource.writableLocations.length > 0, "writable locations");
  assert.ok(resource.readableLocations.length > 0, "readable locations");
  for (const l of resource.writableLocations) {
    assert.equal(new URL(l.databaseAccountEndpoint).host, new URL(process.env.PARTITA_ENDPOINT).host);
  }
  assert.equal(resource.enableMultipleWritableLocations, false);
});

scenario("account: the account read reports the media quota and usage in headers, as the service does", async () => {
  const { resource, headers } = await client.getDatabaseAccount();
  // the SDK reads both from the headers (DatabaseAccount's constructor); databaseaccount.spec.ts compares them
  assert.equal(Number(resource.maxMediaStorageUsageInMB), 10240);
  assert.equal(Number(resource.currentMediaStorageUsageInMB), 0);
  assert.equal(headers["x-ms-max-media-storage-usage-mb"], "10240");
});

scenario("databases: create returns 201 with the system properties", async () => {
  const id = uid("db");
  const r = await client.databases.create({ id });
  assert.equal(r.statusCode, 201);
  assert.equal(r.resource.id, id);
  for (const p of ["_rid", "_self", "_etag", "_ts"]) {
    assert.ok(r.resource[p] !== undefined, `${p} present`);
  }
  assert.equal(r.etag, r.resource._etag);
  assert.ok(r.requestCharge > 0, "request charge");
});

scenario("databases: creating an existing id gives 409", async () => {
  const id = uid("db");
  await client.databases.create({ id });
  await rejectsWith(client.databases.create({ id }), 409);
});

scenario("databases: read returns the database; an unknown one gives 404", async () => {
  const id = uid("db");
  const created = await client.databases.create({ id });
  const r = await client.database(id).read();
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.id, id);
  assert.equal(r.resource._rid, created.resource._rid);
  await rejectsWith(client.database(uid("missing")).read(), 404);
});

scenario("databases: createIfNotExists creates once and then returns the existing one", async () => {
  const id = uid("db");
  const first = await client.databases.createIfNotExists({ id });
  assert.equal(first.statusCode, 201);
  const second = await client.databases.createIfNotExists({ id });
  assert.equal(second.statusCode, 200);
  assert.equal(second.resource._rid, first.resource._rid);
});

scenario("databases: readAll lists every database, in pages", async () => {
  const ids = [uid("list"), uid("list"), uid("list")];
  for (const id of ids) {
    await client.databases.create({ id });
  }
  const { resources } = await client.databases.readAll().fetchAll();
  const listed = resources.map((d) => d.id);
  for (const id of ids) {
    assert.ok(listed.includes(id), `${id} listed`);
  }
  const pages = client.databases.readAll({ maxItemCount: 1 });
  const first = await pages.fetchNext();
  assert.equal(first.resources.length, 1, "a page of one");
  assert.ok(first.hasMoreResults, "more pages");
});

scenario("databases: query by id with a parameter", async () => {
  const id = uid("q");
  await client.databases.create({ id });
  const { resources } = await client.databases
    .query({ query: "SELECT * FROM root r WHERE r.id = @id", parameters: [{ name: "@id", value: id }] })
    .fetchAll();
  assert.deepEqual(resources.map((d) => d.id), [id]);
  const none = await client.databases.query("SELECT * FROM root r WHERE r.id = 'no-such-db'").fetchAll();
  assert.deepEqual(none.resources, []);
});

scenario("databases: delete gives 204, then read gives 404 and a second delete 404", async () => {
  const id = uid("db");
  await client.databases.create({ id });
  const r = await client.database(id).delete();
  assert.equal(r.statusCode, 204);
  await rejectsWith(client.database(id).read(), 404);
  await rejectsWith(client.database(id).delete(), 404);
});

scenario("databases: deleting a database deletes its containers", async () => {
  const id = uid("db");
  const { database } = await client.databases.create({ id });
  await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"] } });
  await database.delete();
  await client.databases.create({ id });
  await rejectsWith(client.database(id).container("c").read(), 404);
});
