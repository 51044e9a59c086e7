// Change feed, pull model (latest version) over a container with several physical partitions: from the beginning,
// from now, from a time, for one partition key, for each feed range, and resumed from a continuation token.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { ChangeFeedMode, ChangeFeedStartFrom, StatusCodes } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, sorted, sleep } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("changefeed") }));
});

async function wideContainer() {
  const { container } = await db.containers.create({ id: uid("cf"), partitionKey: { paths: ["/pk"] } }, { offerThroughput: 12000 });
  return container;
}

/** Reads until the feed answers 304 (no range has anything new); returns the items and the last continuation. */
async function drain(iterator) {
  const items = [];
  let token;
  for (let i = 0; i < 100; i++) {
    const r = await iterator.readNext();
    token = r.continuationToken;
    if (r.statusCode === StatusCodes.NotModified) {
      assert.equal(r.result.length, 0);
      return { items, token };
    }
    assert.equal(r.statusCode, 200);
    items.push(...r.result);
  }
  throw new Error("the change feed never answered 304");
}

async function createSome(container, prefix, count, pks = 6) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    await container.items.create({ id, pk: `k${i % pks}`, v: 1 });
    ids.push(id);
  }
  return ids;
}

scenario("change feed: from the beginning returns every item across partitions", async () => {
  const container = await wideContainer();
  const ids = await createSome(container, "b", 20);
  const { items } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 5 }));
  assert.deepEqual(sorted(items.map((d) => d.id)), sorted(ids));
  assert.ok(items.every((d) => d._lsn !== undefined && d._etag), "system properties on change feed items");
});

scenario("change feed: latest version shows one entry per item with its last value, no deletes", async () => {
  const container = await wideContainer();
  await createSome(container, "u", 6);
  await container.item("u1", "k1").replace({ id: "u1", pk: "k1", v: 2 });
  await container.item("u1", "k1").replace({ id: "u1", pk: "k1", v: 3 });
  await container.item("u2", "k2").delete();
  const { items } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning() }));
  assert.deepEqual(sorted(items.map((d) => d.id)), ["u0", "u1", "u3", "u4", "u5"]);
  assert.equal(items.find((d) => d.id === "u1").v, 3);
});

scenario("change feed: from now sees only later changes", async () => {
  const container = await wideContainer();
  await createSome(container, "old", 6);
  const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now() });
  const before = await drain(iterator);
  assert.deepEqual(before.items, []);
  const ids = await createSome(container, "new", 6);
  await container.item("old0", "k0").replace({ id: "old0", pk: "k0", v: 9 });
  const { items } = await drain(iterator);
  assert.deepEqual(sorted(items.map((d) => d.id)), sorted([...ids, "old0"]));
});

scenario("change feed: for one partition key", async () => {
  const container = await wideContainer();
  await createSome(container, "p", 18);
  const { items } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning("k2") }));
  assert.deepEqual(sorted(items.map((d) => d.id)), ["p14", "p2", "p8"]);
  assert.ok(items.every((d) => d.pk === "k2"));
});

scenario("change feed: each feed range from the beginning, together exactly once", async () => {
  const container = await wideContainer();
  const ids = await createSome(container, "f", 24, 12);
  const ranges = await container.getFeedRanges();
  assert.ok(ranges.length >= 2, `feed ranges: ${ranges.length}`);
  const seen = [];
  for (const range of ranges) {
    const { items } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(range) }));
    seen.push(...items.map((d) => d.id));
  }
  assert.deepEqual(sorted(seen), sorted(ids));
});

scenario("change feed: a continuation token resumes where the last read stopped", async () => {
  const container = await wideContainer();
  await createSome(container, "c", 10);
  const { token } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning() }));
  assert.ok(token, "a continuation token");
  const ids = await createSome(container, "d", 5);
  await container.item("c3", "k3").replace({ id: "c3", pk: "k3", v: 2 });
  const resumed = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(token) }));
  assert.deepEqual(sorted(resumed.items.map((d) => d.id)), sorted([...ids, "c3"]));
  const again = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(resumed.token) }));
  assert.deepEqual(again.items, [], "nothing new after the second token");
});

scenario("change feed: a partition key feed resumes from its continuation token", async () => {
  const container = await wideContainer();
  await createSome(container, "a", 12);
  const { items, token } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning("k1") }));
  assert.deepEqual(sorted(items.map((d) => d.id)), ["a1", "a7"]);
  await container.items.create({ id: "late", pk: "k1" });
  await container.items.create({ id: "other", pk: "k2" });
  const resumed = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(token) }));
  assert.deepEqual(resumed.items.map((d) => d.id), ["late"]);
});

scenario("change feed: from a point in time", async () => {
  const container = await wideContainer();
  await createSome(container, "early", 6);
  await sleep(1500);
  const start = new Date();
  await sleep(1100);
  const ids = await createSome(container, "later", 6);
  const { items } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Time(start) }));
  assert.deepEqual(sorted(items.map((d) => d.id)), sorted(ids));
});

scenario("change feed: changes within one logical partition come in write order", async () => {
  const container = await wideContainer();
  for (const id of ["z", "y", "x", "w"]) {
    await container.items.create({ id, pk: "same" });
  }
  await container.item("z", "same").replace({ id: "z", pk: "same", v: 2 });
  const { items } = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning("same") }));
  assert.deepEqual(items.map((d) => d.id), ["y", "x", "w", "z"]);
});

scenario("change feed: all versions and deletes shows every create, replace and delete", async () => {
  const container = await wideContainer();
  const iterator = container.items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Now(),
    changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes,
  });
  assert.deepEqual((await drain(iterator)).items, []);
  await container.items.create({ id: "v", pk: "k", n: 1 });
  await container.item("v", "k").replace({ id: "v", pk: "k", n: 2 });
  await container.item("v", "k").delete();
  const { items } = await drain(iterator);
  assert.deepEqual(items.map((e) => e.metadata?.operationType), ["create", "replace", "delete"]);
  assert.deepEqual(items.slice(0, 2).map((e) => e.current.n), [1, 2]);
  assert.equal(items[2].metadata.id ?? items[2].previous?.id, "v");
});

scenario("change feed: all versions and deletes cannot start from the beginning (the service's 400)", async () => {
  const container = await wideContainer();
  await container.items.create({ id: "b", pk: "k" });
  const iterator = container.items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Beginning(),
    changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes,
  });
  await assert.rejects(iterator.readNext(), (err) => {
    assert.equal(err.code, StatusCodes.BadRequest);
    assert.ok(err.message.includes("You must read the change feed from within the retention period."), err.message);
    return true;
  });
});

scenario("change feed: each page names the partition key range that answered it, breadth first", async () => {
  const container = await wideContainer();
  await createSome(container, "bf", 24, 12);
  const iterator = container.items.getChangeFeedIterator({ maxItemCount: 1, changeFeedStartFrom: ChangeFeedStartFrom.Beginning() });
  const first = await iterator.readNext();
  const second = await iterator.readNext();
  const ranges = [first, second].map((r) => r.headers["x-ms-documentdb-partitionkeyrangeid"]);
  assert.ok(ranges[0] !== undefined && ranges[1] !== undefined, JSON.stringify(ranges));
  assert.notEqual(ranges[0], ranges[1]);
});
