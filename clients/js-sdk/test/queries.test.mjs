// Queries over a container with four physical partitions: single- and cross-partition, ORDER BY, aggregates,
// GROUP BY, DISTINCT, OFFSET/LIMIT, TOP, parameters, paging with fetchNext and resuming from a continuation token.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid, rejectsWith, sorted } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let container;
const N = 40;
const CATS = ["a", "b", "c"];
const docs = [];
for (let i = 0; i < N; i++) {
  docs.push({ id: `q${String(i).padStart(2, "0")}`, pk: `p${i % 8}`, n: i, cat: CATS[i % 3], price: i / 4, tags: i % 2 ? ["odd"] : ["even", "x"] });
}
before(async () => {
  const { database } = await client.databases.create({ id: uid("queries") });
  ({ container } = await database.containers.create({ id: "q", partitionKey: { paths: ["/pk"] } }, { offerThroughput: 24000 }));
  await Promise.all(docs.map((d) => container.items.create(d)));
});

const all = async (query, options) => (await container.items.query(query, options).fetchAll()).resources;
const numeric = (values) => [...values].sort((a, b) => a - b);
const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);

scenario("queries: the container spans several physical partitions", async () => {
  const { resources } = await container.readPartitionKeyRanges().fetchAll();
  assert.ok(resources.length >= 4, `ranges: ${resources.length}`);
});

scenario("queries: cross-partition SELECT * returns every item", async () => {
  const rows = await all("SELECT * FROM c");
  assert.deepEqual(sorted(rows.map((r) => r.id)), docs.map((d) => d.id));
});

scenario("queries: single-partition query with the partitionKey option", async () => {
  const rows = await all("SELECT * FROM c", { partitionKey: "p3" });
  assert.deepEqual(sorted(rows.map((r) => r.n)), [3, 11, 19, 27, 35]);
  assert.ok(rows.every((r) => r.pk === "p3"));
});

scenario("queries: a filter on the partition key without the option", async () => {
  const rows = await all("SELECT VALUE c.n FROM c WHERE c.pk = 'p5'");
  assert.deepEqual(numeric(rows), [5, 13, 21, 29, 37]);
});

scenario("queries: parameters", async () => {
  const rows = await all({
    query: "SELECT VALUE c.n FROM c WHERE c.n >= @min AND c.cat = @cat AND ARRAY_CONTAINS(@pks, c.pk)",
    parameters: [{ name: "@min", value: 20 }, { name: "@cat", value: "b" }, { name: "@pks", value: ["p1", "p4", "p7"] }],
  });
  assert.deepEqual(numeric(rows), docs.filter((d) => d.n >= 20 && d.cat === "b" && ["p1", "p4", "p7"].includes(d.pk)).map((d) => d.n));
});

scenario("queries: cross-partition ORDER BY ascending and descending", async () => {
  assert.deepEqual((await all("SELECT * FROM c ORDER BY c.n")).map((r) => r.n), range(0, N));
  assert.deepEqual(await all("SELECT VALUE c.n FROM c ORDER BY c.n DESC"), range(0, N).reverse());
  assert.deepEqual((await all("SELECT c.id FROM c ORDER BY c.id DESC")).map((r) => r.id), docs.map((d) => d.id).reverse());
});

scenario("queries: ORDER BY within one partition", async () => {
  assert.deepEqual(await all("SELECT VALUE c.n FROM c ORDER BY c.n DESC", { partitionKey: "p2" }), [34, 26, 18, 10, 2]);
});

scenario("queries: COUNT, SUM, AVG, MIN and MAX across partitions", async () => {
  assert.deepEqual(await all("SELECT VALUE COUNT(1) FROM c"), [N]);
  assert.deepEqual(await all("SELECT VALUE SUM(c.n) FROM c"), [780]);
  assert.deepEqual(await all("SELECT VALUE AVG(c.n) FROM c"), [19.5]);
  assert.deepEqual(await all("SELECT VALUE MIN(c.n) FROM c"), [0]);
  assert.deepEqual(await all("SELECT VALUE MAX(c.n) FROM c"), [39]);
  assert.deepEqual(await all("SELECT VALUE MAX(c.cat) FROM c"), ["c"]);
  assert.deepEqual(await all("SELECT VALUE COUNT(1) FROM c WHERE c.n > 100"), [0]);
});

scenario("queries: several aggregates in one non-VALUE SELECT", async () => {
  const rows = await all("SELECT COUNT(1) AS cnt, SUM(c.price) AS total, MIN(c.n) AS lo, MAX(c.n) AS hi FROM c");
  assert.deepEqual(rows, [{ cnt: 40, total: 195, lo: 0, hi: 39 }]);
});

scenario("queries: aggregates within one partition", async () => {
  assert.deepEqual(await all("SELECT VALUE COUNT(1) FROM c", { partitionKey: "p1" }), [5]);
  assert.deepEqual(await all("SELECT VALUE SUM(c.n) FROM c", { partitionKey: "p1" }), [1 + 9 + 17 + 25 + 33]);
});

scenario("queries: GROUP BY with COUNT and SUM", async () => {
  const rows = await all("SELECT c.cat, COUNT(1) AS cnt, SUM(c.n) AS total FROM c GROUP BY c.cat");
  const byCat = Object.fromEntries(rows.map((r) => [r.cat, [r.cnt, r.total]]));
  const expect = {};
  for (const d of docs) {
    expect[d.cat] ??= [0, 0];
    expect[d.cat][0]++;
    expect[d.cat][1] += d.n;
  }
  assert.deepEqual(byCat, expect);
});

scenario("queries: DISTINCT and DISTINCT VALUE", async () => {
  assert.deepEqual(sorted(await all("SELECT DISTINCT VALUE c.cat FROM c")), CATS);
  const rows = await all("SELECT DISTINCT c.cat FROM c");
  assert.deepEqual(sorted(rows.map((r) => r.cat)), CATS);
  assert.equal(rows.length, 3);
});

scenario("queries: OFFSET LIMIT with ORDER BY", async () => {
  assert.deepEqual(await all("SELECT VALUE c.n FROM c ORDER BY c.n OFFSET 5 LIMIT 3"), [5, 6, 7]);
  assert.deepEqual(await all("SELECT VALUE c.n FROM c ORDER BY c.n DESC OFFSET 38 LIMIT 10"), [1, 0]);
});

scenario("queries: TOP with and without ORDER BY", async () => {
  assert.deepEqual(await all("SELECT TOP 3 VALUE c.n FROM c ORDER BY c.n"), [0, 1, 2]);
  const top = await all("SELECT TOP 7 * FROM c");
  assert.equal(top.length, 7);
  assert.equal(new Set(top.map((r) => r.id)).size, 7);
});

scenario("queries: built-in functions, JOIN and IN", async () => {
  const joined = await all("SELECT VALUE c.n FROM c JOIN t IN c.tags WHERE t = 'x'");
  assert.deepEqual(numeric(joined), range(0, N).filter((i) => i % 2 === 0));
  const fn = await all("SELECT VALUE UPPER(c.cat) FROM c WHERE c.id IN ('q00', 'q01') AND IS_DEFINED(c.tags)");
  assert.deepEqual(sorted(fn), ["A", "B"]);
  assert.deepEqual(await all("SELECT VALUE ARRAY_LENGTH(c.tags) FROM c WHERE c.id = 'q00'"), [2]);
});

scenario("queries: a syntax error gives 400", async () => {
  await rejectsWith(container.items.query("SELEC * FROM c").fetchAll(), 400);
});

scenario("queries: a query the gateway runs over the whole container resumes from the service's JSON token", async () => {
  // continuationTokenQueryControl.spec.ts parses this token as JSON: [{"token":…,"range":{"min","max"}}]
  const first = await container.items.query("SELECT * FROM c", { maxItemCount: 5 }).fetchNext();
  const token = JSON.parse(first.continuationToken);
  assert.equal(token.length, 1);
  assert.equal(typeof token[0].token, "string");
  assert.deepEqual(token[0].range, { min: "", max: "FF" });
  const rest = await container.items.query("SELECT * FROM c", { maxItemCount: 5, continuationToken: first.continuationToken }).fetchAll();
  const everything = await container.items.query("SELECT * FROM c").fetchAll();
  assert.deepEqual(sorted([...first.resources, ...rest.resources].map((d) => d.id)), sorted(everything.resources.map((d) => d.id)));
});

scenario("queries: a compile error's message embeds the service's error list with its location", async () => {
  // the service's shape: Message: {"errors":[{"severity","location":{"start","end"},"code","message"}]}
  const errorsOf = (e) => JSON.parse(e.body.message.match(/^Message: (\{.*\})\r\nActivityId: /)[1]).errors;
  const syntax = await rejectsWith(container.items.query("SELECT * frm c").fetchAll(), 400);
  assert.deepEqual(errorsOf(syntax), [{ severity: "Error", location: { start: 9, end: 12 }, code: "SC1001",
    message: "Syntax error, incorrect syntax near 'frm'." }]);
  const unknown = await rejectsWith(container.items.query("SELECT VALUE NOSUCH(c.n) FROM c").fetchAll(), 400);
  assert.equal(errorsOf(unknown)[0].code, "SC2005");
  // a single-partition query is sent without a plan, and its error has the same shape
  const single = await rejectsWith(container.items.query("SELECT * frm c", { partitionKey: "a" }).fetchAll(), 400);
  assert.deepEqual(errorsOf(single), errorsOf(syntax));
});

scenario("queries: fetchNext pages a cross-partition query with maxItemCount", async () => {
  const it = container.items.query("SELECT * FROM c", { maxItemCount: 7 });
  const seen = [];
  let pages = 0;
  while (it.hasMoreResults()) {
    const page = await it.fetchNext();
    assert.ok(page.resources.length <= 7, `page of ${page.resources.length}`);
    seen.push(...page.resources.map((r) => r.id));
    pages++;
    assert.ok(pages < 50, "terminates");
  }
  assert.deepEqual(sorted(seen), docs.map((d) => d.id), "every item exactly once");
  assert.ok(pages >= 6, `several pages, got ${pages}`);
});

scenario("queries: fetchNext pages a cross-partition ORDER BY in order", async () => {
  const it = container.items.query("SELECT c.n FROM c ORDER BY c.n", { maxItemCount: 6 });
  const seen = [];
  while (it.hasMoreResults()) {
    const page = await it.fetchNext();
    assert.ok(page.resources.length <= 6);
    seen.push(...page.resources.map((r) => r.n));
  }
  assert.deepEqual(seen, range(0, N));
});

scenario("queries: a single-partition query resumes from its continuation token", async () => {
  const query = "SELECT * FROM c WHERE c.n >= 0";
  const first = await container.items.query(query, { partitionKey: "p0", maxItemCount: 2 }).fetchNext();
  assert.equal(first.resources.length, 2);
  assert.ok(first.continuationToken, "a continuation token");
  const rest = await container.items.query(query, { partitionKey: "p0", maxItemCount: 2, continuationToken: first.continuationToken }).fetchAll();
  const ids = [...first.resources, ...rest.resources].map((r) => r.id);
  assert.deepEqual(sorted(ids), docs.filter((d) => d.pk === "p0").map((d) => d.id));
});

scenario("queries: a cross-partition query resumes from its continuation token", async () => {
  const query = "SELECT * FROM c";
  const first = await container.items.query(query, { maxItemCount: 9 }).fetchNext();
  assert.ok(first.continuationToken, "a continuation token");
  const seen = first.resources.map((r) => r.id);
  let token = first.continuationToken;
  for (let i = 0; token && i < 20; i++) {
    const page = await container.items.query(query, { maxItemCount: 9, continuationToken: token }).fetchNext();
    seen.push(...page.resources.map((r) => r.id));
    token = page.continuationToken;
  }
  assert.deepEqual(sorted(seen), docs.map((d) => d.id), "every item exactly once");
});

// The gateway sends a cross-partition ORDER BY back with its plan, so the SDK merges the ranges itself: its pages
// then carry no token for the user (as against the service), and with enableQueryControl they carry its composite one.
scenario("queries: a cross-partition ORDER BY pages through the SDK's merge; query control resumes it", async () => {
  const query = "SELECT c.id, c.n FROM c ORDER BY c.n";
  const iterator = container.items.query(query, { maxItemCount: 10 });
  const merged = [];
  while (iterator.hasMoreResults()) {
    const page = await iterator.fetchNext();
    assert.equal(page.continuationToken, undefined, "no user token on the SDK's pipeline");
    merged.push(...page.resources.map((r) => r.n));
  }
  assert.deepEqual(merged, range(0, N));
  const options = { maxItemCount: 10, enableQueryControl: true };
  const first = await container.items.query(query, options).fetchNext();
  assert.ok(first.continuationToken, "a continuation token");
  const seen = first.resources.map((r) => r.n);
  let token = first.continuationToken;
  for (let i = 0; token && i < 40; i++) {
    const page = await container.items.query(query, { ...options, continuationToken: token }).fetchNext();
    seen.push(...page.resources.map((r) => r.n));
    token = page.continuationToken;
  }
  assert.deepEqual(seen, range(0, N));
});

scenario("queries: enableQueryControl pages and resumes a cross-partition query", async () => {
  const query = "SELECT * FROM c";
  const options = { maxItemCount: 8, enableQueryControl: true };
  const first = await container.items.query(query, options).fetchNext();
  const seen = first.resources.map((r) => r.id);
  let token = first.continuationToken;
  for (let i = 0; token && i < 40; i++) {
    const page = await container.items.query(query, { ...options, continuationToken: token }).fetchNext();
    seen.push(...page.resources.map((r) => r.id));
    token = page.continuationToken;
  }
  assert.deepEqual(sorted(seen), docs.map((d) => d.id));
});

scenario("queries: readAll pages through the items", async () => {
  const it = container.items.readAll({ maxItemCount: 15 });
  const seen = [];
  while (it.hasMoreResults()) {
    const page = await it.fetchNext();
    assert.ok(page.resources.length <= 15);
    seen.push(...page.resources.map((r) => r.id));
  }
  assert.deepEqual(sorted(seen), docs.map((d) => d.id));
});

// The same queries on the SDK's pipelined path: it fetches the query plan, sends the rewritten query to each
// partition key range and merges (what it does against the real gateway for non-streamable cross-partition queries).
const planned = (query, options = {}) => all(query, { forceQueryPlan: true, ...options });

scenario("queries (query plan): ORDER BY merges the ranges", async () => {
  assert.deepEqual(await planned("SELECT VALUE c.n FROM c ORDER BY c.n DESC", { maxItemCount: 4 }), range(0, N).reverse());
  assert.deepEqual((await planned("SELECT c.id, c.n FROM c ORDER BY c.id")).map((r) => r.id), docs.map((d) => d.id));
});

scenario("queries (query plan): COUNT, SUM, AVG, MIN and MAX", async () => {
  assert.deepEqual(await planned("SELECT VALUE COUNT(1) FROM c"), [N]);
  assert.deepEqual(await planned("SELECT VALUE SUM(c.n) FROM c"), [780]);
  assert.deepEqual(await planned("SELECT VALUE AVG(c.n) FROM c"), [19.5]);
  assert.deepEqual(await planned("SELECT VALUE MIN(c.n) FROM c"), [0]);
  assert.deepEqual(await planned("SELECT VALUE MAX(c.n) FROM c"), [39]);
});

scenario("queries (query plan): GROUP BY", async () => {
  const rows = await planned("SELECT c.cat, COUNT(1) AS cnt FROM c GROUP BY c.cat");
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r.cat, r.cnt])), { a: 14, b: 13, c: 13 });
});

scenario("queries (query plan): DISTINCT, OFFSET LIMIT and TOP", async () => {
  assert.deepEqual(sorted(await planned("SELECT DISTINCT VALUE c.cat FROM c")), CATS);
  assert.deepEqual(await planned("SELECT VALUE c.n FROM c ORDER BY c.n OFFSET 10 LIMIT 4"), [10, 11, 12, 13]);
  assert.deepEqual(await planned("SELECT TOP 5 VALUE c.n FROM c ORDER BY c.n DESC"), [39, 38, 37, 36, 35]);
});

scenario("queries (query plan): a filter on the partition key goes to one range", async () => {
  assert.deepEqual(numeric(await planned("SELECT VALUE c.n FROM c WHERE c.pk = 'p6'")), [6, 14, 22, 30, 38]);
});

// Aggregates over values of mixed types, on a container of its own with five physical partitions: the answer is the
// whole scope's (query-language.md §2.9) even when the value that makes an aggregate undefined is in one partition.
// An undefined aggregate gives no row under SELECT VALUE and no property otherwise.
let mixed;
before(async () => {
  const { database } = await client.databases.create({ id: uid("aggregates") });
  ({ container: mixed } = await database.containers.create({ id: "mixed", partitionKey: { paths: ["/pk"] } }, { offerThroughput: 30000 }));
  const items = [];
  for (let i = 0; i < 40; i++) {
    items.push({ id: `n${i}`, pk: `p${i}`, n: i, g: i % 2 ? "odd" : "even", t: i % 4 ? "other" : "four" });
  }
  items.push({ id: "s", pk: "ps", n: "text", g: "odd", t: "other" });
  items.push({ id: "o", pk: "po", obj: { a: 1 }, g: "even" });
  items.push({ id: "z", pk: "pz", n: null, g: "none" });
  for (const d of items) {
    await mixed.items.create(d);
  }
});
const mixedRows = async (query) => (await mixed.items.query(query, { forceQueryPlan: true }).fetchAll()).resources
  .map((r) => JSON.parse(JSON.stringify(r)));
const byKey = (rows, key) => Object.fromEntries(rows.map((r) => [JSON.stringify(r[key]), r]));

scenario("queries (mixed types): the container spans five physical partitions", async () => {
  const { resources } = await mixed.readPartitionKeyRanges().fetchAll();
  assert.equal(resources.length, 5);
});

scenario("queries (mixed types): SUM and AVG are undefined when any value in scope is not a number", async () => {
  assert.deepEqual(await mixedRows("SELECT VALUE SUM(c.n) FROM c"), []);
  assert.deepEqual(await mixedRows("SELECT VALUE AVG(c.n) FROM c"), []);
  assert.deepEqual(await mixedRows("SELECT SUM(c.n) AS s, AVG(c.n) AS a, COUNT(c.n) AS k FROM c"), [{ k: 42 }]);
  assert.deepEqual(await mixedRows("SELECT VALUE SUM(c.n) FROM c WHERE IS_NUMBER(c.n)"), [780]);
  assert.deepEqual(await mixedRows("SELECT VALUE AVG(c.n) FROM c WHERE c.g = 'even' AND IS_DEFINED(c.n)"), [19]);
});

scenario("queries (mixed types): GROUP BY aggregates are undefined only in the groups that mix types", async () => {
  const rows = byKey(await mixedRows("SELECT c.g, SUM(c.n) AS s, AVG(c.n) AS a FROM c GROUP BY c.g"), "g");
  assert.deepEqual(rows, { '"even"': { g: "even", s: 380, a: 19 }, '"odd"': { g: "odd" }, '"none"': { g: "none" } });
  assert.deepEqual(numeric(await mixedRows("SELECT VALUE SUM(c.n) FROM c WHERE IS_DEFINED(c.t) GROUP BY c.t")), [180]);
});

scenario("queries (mixed types): MIN and MAX follow the type order, and an object makes them undefined", async () => {
  assert.deepEqual(await mixedRows("SELECT VALUE MIN(c.n) FROM c"), [null]);
  assert.deepEqual(await mixedRows("SELECT VALUE MAX(c.n) FROM c"), ["text"]);
  assert.deepEqual(await mixedRows("SELECT MIN(c.n) AS lo, MAX(c.n) AS hi FROM c WHERE c.n != null"), [{ lo: 0, hi: "text" }]);
  // a partition whose only value is null next to another's number (at least one k lives elsewhere than the null):
  // the SDK's MaxAggregator cannot compare null with a number, so only the partition holding the scope's MAX reports
  for (let k = 0; k < 10; k++) {
    assert.deepEqual(await mixedRows(`SELECT VALUE MAX(c.n) FROM c WHERE c.n = null OR c.n = ${k}`), [k]);
  }
  assert.deepEqual(await mixedRows("SELECT VALUE MIN(c.obj) FROM c"), []);
  assert.deepEqual(await mixedRows("SELECT MAX(c.obj) AS hi, COUNT(c.obj) AS k FROM c"), [{ k: 1 }]);
});

// GROUP BY on a key that is undefined on some items and of several types over the partitions: one group per value
// (an object's property order does not matter), undefined its own group, null another. (JavaScript writes 1.0 as 1;
// the Java SDK test stores both.)
let keyed;
before(async () => {
  const { database } = await client.databases.create({ id: uid("groupkeys") });
  ({ container: keyed } = await database.containers.create({ id: "keys", partitionKey: { paths: ["/pk"] } }, { offerThroughput: 30000 }));
  const written = [undefined, "null", "true", "1", "1", '"1"', "[1]", '{"a":1,"b":2}', '{"b":2,"a":1}'];
  for (let w = 0; w < written.length; w++) {
    for (let i = 0; i < 8; i++) {
      const doc = { id: `${w}-${i}`, pk: `k${w}-${i}`, n: i };
      if (written[w] !== undefined) {
        doc.k = JSON.parse(written[w]);
      }
      await keyed.items.create(doc);
    }
  }
});
const keyedRows = async (query) => (await keyed.items.query(query, { forceQueryPlan: true }).fetchAll()).resources
  .map((r) => JSON.parse(JSON.stringify(r)));
const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((p) => [p, x[p]])) : x));

scenario("queries (group keys): GROUP BY forms one group per key value, undefined its own", async () => {
  const rows = (await keyedRows("SELECT c.k, COUNT(1) AS n, SUM(c.n) AS s FROM c GROUP BY c.k")).map(canonical);
  assert.deepEqual(sorted(rows), sorted([{ n: 8, s: 28 }, { k: null, n: 8, s: 28 }, { k: true, n: 8, s: 28 },
    { k: 1, n: 16, s: 56 }, { k: "1", n: 8, s: 28 }, { k: [1], n: 8, s: 28 }, { k: { a: 1, b: 2 }, n: 16, s: 56 }].map(canonical)));
  const values = (await keyedRows("SELECT VALUE c.k FROM c GROUP BY c.k")).map(canonical);
  assert.deepEqual(sorted(values), sorted([null, true, 1, "1", [1], { a: 1, b: 2 }].map(canonical)));
});

scenario("queries (index metrics): populateIndexMetrics returns the filter's utilized and potential indexes", async () => {
  const iterator = container.items.query("SELECT * FROM c WHERE c.cat = 'a' AND c.n > 3", {
    populateIndexMetrics: true, partitionKey: "p3",
  });
  const { resources, indexMetrics } = await iterator.fetchNext();
  assert.ok(resources.length > 0);
  const metrics = JSON.parse(indexMetrics);
  assert.deepEqual(metrics.UtilizedSingleIndexes.map((e) => e.IndexSpec), ["/cat/?", "/n/?"]);
  assert.deepEqual(metrics.PotentialSingleIndexes, []);
  assert.deepEqual(metrics.PotentialCompositeIndexes.map((e) => e.IndexSpecs), [["/cat ASC", "/n ASC"]]);
  const { indexMetrics: none } = await container.items.query("SELECT * FROM c", { partitionKey: "p3" }).fetchNext();
  assert.equal(none, "{}");
});

// From the SDK's own aggregate and query-iterator tests: the same request costs the same every time (fetchAll and a
// fetchNext loop over the same pages agree within 1%), an aggregate's ORDER BY needs no composite index, and a
// continuation token the server did not issue is its 400.
scenario("queries (charges): an aggregate costs the same through fetchAll, fetchNext and again", async () => {
  const query = "SELECT VALUE AVG(c.n) FROM c WHERE IS_NUMBER(c.n)";
  const iterator = container.items.query(query, { maxItemCount: 1, maxDegreeOfParallelism: 2 });
  const all = await iterator.fetchAll();
  assert.deepEqual(all.resources, [(N - 1) / 2]);
  const again = await container.items.query(query, { maxItemCount: 1 }).fetchAll();
  assert.equal(again.requestCharge, all.requestCharge);
  iterator.reset();
  let charge = 0;
  const rows = [];
  while (iterator.hasMoreResults()) {
    const page = await iterator.fetchNext();
    charge += page.requestCharge;
    rows.push(...(page.resources ?? []));
  }
  assert.deepEqual(rows, all.resources);
  assert.ok(Math.abs(charge - all.requestCharge) / charge <= 0.01, `fetchNext ${charge} vs fetchAll ${all.requestCharge}`);
});

scenario("queries (aggregates): an aggregate's multi-item ORDER BY needs no composite index", async () => {
  assert.deepEqual(await all("SELECT VALUE SUM(c.n) FROM c ORDER BY c.cat, c.n"), [N * (N - 1) / 2]);
  await rejectsWith(container.items.query("SELECT * FROM c ORDER BY c.cat DESC, c.n").fetchAll(), 400);
});

scenario("queries (paging): a continuation token the server did not issue is its 400", async () => {
  const iterator = container.items.readAll({ maxItemCount: 2, continuationToken: "junk", partitionKey: "p1" });
  const e = await rejectsWith(iterator.fetchNext(), 400);
  assert.match(e.message, /Invalid Continuation Token/);
});

// The SDK's own query tests (query.spec.ts, "QueryIterator" and "QueryIterator: Hierarchical partitions") read items
// back in the order they were created: within a physical partition a query without ORDER BY answers in document order,
// not in partition-key or id order.
scenario("queries (document order): readAll pages in creation order, single and hierarchical keys", async () => {
  const { database } = await client.databases.create({ id: uid("order") });
  const { container: byId } = await database.containers.create({ id: "byId", partitionKey: { paths: ["/id"] } });
  for (const id of ["doc1", "doc2", "doc3"]) {
    await byId.items.create({ id, prop1: "v" });
  }
  const pages = [];
  for await (const { resources } of byId.items.readAll({ maxItemCount: 2 }).getAsyncIterator()) {
    pages.push(resources.map((d) => d.id));
  }
  assert.deepEqual(pages.flat(), ["doc1", "doc2", "doc3"]);
  assert.deepEqual(pages[0], ["doc1", "doc2"]);

  const { container: hpk } = await database.containers.create({
    id: "hpk",
    partitionKey: { paths: ["/prop1", "/prop2"], version: 2, kind: "MultiHash" },
  });
  for (const [id, a, b] of [["doc1", "a", 1], ["doc2", "a", 1], ["doc3", "a", 1], ["doc4", "b", 2]]) {
    await hpk.items.create({ id, prop1: a, prop2: b });
  }
  const { resources } = await hpk.items.readAll({ maxItemCount: 2 }).fetchAll();
  assert.deepEqual(resources.map((d) => d.id), ["doc1", "doc2", "doc3", "doc4"]);
  const { resources: filtered } = await hpk.items.query("SELECT * FROM c WHERE c.prop1 IN ('a', 'b')").fetchAll();
  assert.deepEqual(filtered.map((d) => d.id), ["doc1", "doc2", "doc3", "doc4"]);
  await database.delete();
});

// Query control (enableQueryControl) hands out a token after every page, and an empty page repeats the token it was
// given: a client that re-creates its iterator from each token until there is none relies on the last page carrying
// none. And the SDK resumes ORDER BY ties by the _rid's document number, read little-endian: past 255 items in a
// partition a wrongly ordered counter repeated or skipped items.
scenario("queries (query control): re-created from each token, pages end; ORDER BY ties resume past 255 items", async () => {
  const { database } = await client.databases.create({ id: uid("control") });
  const { container: c } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"] } });
  const N = 300;
  await c.items.executeBulkOperations(Array.from({ length: N }, (_, i) => ({
    operationType: "Create", partitionKey: "p", resourceBody: { id: `d${i}`, pk: "p", amount: 1 },
  })));
  for (const [query, pageSize] of [["SELECT * FROM c", 100], ["SELECT * FROM c ORDER BY c.amount ASC", 100], ["SELECT c.id FROM c WHERE c.amount = 1", 60]]) {
    const options = { maxItemCount: pageSize, enableQueryControl: true };
    let iterator = c.items.query(query, options);
    const ids = [];
    let pages = 0;
    while (iterator.hasMoreResults() && pages < 20) {
      const page = await iterator.fetchNext();
      pages++;
      ids.push(...page.resources.map((d) => d.id));
      if (page.continuationToken && iterator.hasMoreResults()) {
        iterator = c.items.query(query, { ...options, continuationToken: page.continuationToken });
      }
    }
    assert.equal(pages, N / pageSize, `${query}: pages`);
    assert.equal(new Set(ids).size, N, `${query}: distinct items`);
    assert.deepEqual(ids, Array.from({ length: N }, (_, i) => `d${i}`), `${query}: creation order`);
  }
  await database.delete();
});

// The SDK's groupBy spec ("with aggregates and fields that do not exist"): across partitions the gateway sends GROUP BY
// back with its plan, the ranges send undefined partials as computed, and the SDK's pipeline keeps every alias, an
// undefined aggregate as an own key with the value undefined.
scenario("queries: GROUP BY over properties that do not exist keeps every alias", async () => {
  const sql = "SELECT c.cat, AVG(c.nope) AS a, MIN(c.nope) AS lo, MAX(c.nope) AS hi, COUNT(c.nope) AS k, SUM(c.nope) AS s"
    + " FROM c WHERE c.cat = 'a' OR c.cat = 'b' GROUP BY c.cat";
  for (const options of [{}, { forceQueryPlan: true }]) {
    const rows = (await container.items.query(sql, options).fetchAll()).resources.sort((x, y) => x.cat.localeCompare(y.cat));
    assert.deepStrictEqual(rows, ["a", "b"].map((cat) => ({ cat, a: undefined, lo: undefined, hi: undefined, k: 0, s: 0 })),
      JSON.stringify(options));
  }
});
