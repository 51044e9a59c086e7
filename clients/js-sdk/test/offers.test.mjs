// Offers: read and replace a container's and a database's throughput, autoscale, containers in shared-throughput
// databases.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("offers") }));
});

scenario("offers: a container's offer is read and replaced", async () => {
  const { container, resource: def } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] } }, { offerThroughput: 400 });
  const { resource: offer } = await container.readOffer();
  assert.ok(offer, "an offer");
  assert.equal(offer.content.offerThroughput, 400);
  assert.equal(offer.offerResourceId, def._rid);
  assert.equal(offer.resource, def._self);
  const r = await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 1000 } });
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.content.offerThroughput, 1000);
  assert.equal((await container.readOffer()).resource.content.offerThroughput, 1000);
  assert.equal((await client.offer(offer.id).read()).resource.content.offerThroughput, 1000);
});

scenario("offers: an offer addressed by its _self instead of its id is a 400, and nothing changes", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] } }, { offerThroughput: 400 });
  const { resource: offer } = await container.readOffer();
  // the SDK builds /offers/offers/{rid}/ from the _self
  await assert.rejects(client.offer(offer._self).replace({ ...offer, content: { ...offer.content, offerThroughput: 900 } }),
    (e) => e.code === 400);
  assert.equal((await container.readOffer()).resource.content.offerThroughput, 400);
});

scenario("offers: readAll and query list the offers", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] } }, { offerThroughput: 500 });
  const { resource: offer } = await container.readOffer();
  const { resources } = await client.offers.readAll().fetchAll();
  assert.ok(resources.some((o) => o.id === offer.id), "listed");
  const q = await client.offers
    .query({ query: "SELECT * FROM root r WHERE r.offerResourceId = @rid", parameters: [{ name: "@rid", value: offer.offerResourceId }] })
    .fetchAll();
  assert.deepEqual(q.resources.map((o) => o.id), [offer.id]);
});

scenario("offers: an autoscale container's offer has its maximum throughput", async () => {
  const { container } = await db.containers.create({ id: uid("c"), partitionKey: { paths: ["/pk"] }, maxThroughput: 4000 });
  const { resource: offer } = await container.readOffer();
  assert.equal(offer.content.offerAutopilotSettings.maxThroughput, 4000);
});

scenario("offers: a shared-throughput database's offer is read and replaced", async () => {
  const { database } = await client.databases.create({ id: uid("shared") }, { offerThroughput: 1000 });
  const { resource: offer } = await database.readOffer();
  assert.equal(offer.content.offerThroughput, 1000);
  const r = await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 2000 } });
  assert.equal(r.resource.content.offerThroughput, 2000);
  assert.equal((await database.readOffer()).resource.content.offerThroughput, 2000);
});

scenario("offers: an autoscale shared-throughput database's offer has its maximum throughput", async () => {
  const { database } = await client.databases.create({ id: uid("auto"), maxThroughput: 5000 });
  const { resource: offer } = await database.readOffer();
  assert.equal(offer.content.offerAutopilotSettings.maxThroughput, 5000);
  const { container } = await database.containers.create({ id: "inner", partitionKey: { paths: ["/pk"] } });
  await container.items.create({ id: "a", pk: "k" });
  assert.equal((await container.readOffer()).resource, undefined, "the container shares the database's offer");
});

scenario("offers: a container sharing its database's throughput has no offer of its own", async () => {
  const { database } = await client.databases.create({ id: uid("shared") }, { offerThroughput: 1000 });
  const { container } = await database.containers.create({ id: "inner", partitionKey: { paths: ["/pk"] } });
  const r = await container.readOffer();
  assert.equal(r.resource, undefined, "readOffer finds no offer for the container");
  assert.equal((await database.readOffer()).resource.content.offerThroughput, 1000);
});

scenario("offers: a container with dedicated throughput in a shared-throughput database has its own offer", async () => {
  const { database } = await client.databases.create({ id: uid("shared") }, { offerThroughput: 1000 });
  const { container } = await database.containers.create({ id: "own", partitionKey: { paths: ["/pk"] } }, { offerThroughput: 600 });
  const { resource: offer } = await container.readOffer();
  assert.ok(offer, "an offer");
  assert.equal(offer.content.offerThroughput, 600);
  assert.equal((await database.readOffer()).resource.content.offerThroughput, 1000);
});

scenario("offers: a container created without throughput has the default 400 RU/s offer", async () => {
  const { database } = await client.databases.create({ id: uid("plain") });
  const { container, resource: def } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"] } });
  const { resource: offer } = await container.readOffer();
  assert.ok(offer, "an offer of its own");
  assert.equal(offer.content.offerThroughput, 400);
  assert.equal(offer.resource, def._self);
  const { resources } = await client.offers.readAll().fetchAll();
  assert.ok(resources.some((o) => o.id === offer.id), "listed");
});

scenario("offers: a database without throughput has no offer", async () => {
  const { database } = await client.databases.create({ id: uid("plain") });
  const r = await database.readOffer();
  assert.equal(r.resource, undefined);
});
