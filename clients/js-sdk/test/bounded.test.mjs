// Queries on a server that gives a request no time at all (PARTITA_HURRIED_ENDPOINT, which JsSdkSuiteTest starts
// beside the suite's server): every page ends after one item, the aggregates' state rides in the continuation, and
// the SDK's GROUP BY and aggregate pipelines must give what the suite's unhurried server gives. A page without a row
// once the SDK holds one would end its read for good (GroupByEndpointComponent.fetchMore), so this also checks that
// the read ends, and with every group.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { CosmosClient } from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, key } from "../lib/support.mjs";

after(disposeClients);
const hurriedEndpoint = process.env.PARTITA_HURRIED_ENDPOINT;
const unhurried = newClient();
const hurried = hurriedEndpoint ? new CosmosClient({ endpoint: hurriedEndpoint, key }) : null;
after(() => hurried?.dispose());

// 0 to 44 in groups g0-g2 by n % 3, a string in g0, an object and a double in g3, an item without n in g1, items
// without n alone in g4, and two items without a group
const docs = [];
for (let i = 0; i < 45; i++) {
  docs.push({ id: `n${i}`, pk: `p${i % 7}`, g: `g${i % 3}`, n: i });
}
docs.push({ id: "s", pk: "p1", g: "g0", n: "x" }, { id: "o", pk: "p3", g: "g3", n: { a: 1 } },
  { id: "d", pk: "p4", g: "g3", n: 2.5 }, { id: "u", pk: "p3", g: "g1" }, { id: "m1", pk: "p2", g: "g4" },
  { id: "m2", pk: "p3", g: "g4" }, { id: "k1", pk: "p5", n: 100 }, { id: "k2", pk: "p3", n: 1 });

const containers = {};
before(async () => {
  if (!hurried) {
    return;
  }
  const id = uid("bounded");
  for (const [name, client] of [["unhurried", unhurried], ["hurried", hurried]]) {
    const { database } = await client.databases.create({ id });
    const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"] } },
      { offerThroughput: 12000 });
    for (const d of docs) {
      await container.items.create(d);
    }
    containers[name] = container;
  }
});

const rows = async (name, query, options) =>
  (await containers[name].items.query(query, options).fetchAll()).resources.map((r) => JSON.stringify(r)).sort();

const QUERIES = [
  "SELECT c.g, SUM(c.n) AS s, AVG(c.n) AS a, MIN(c.n) AS lo, MAX(c.n) AS hi, COUNT(1) AS k FROM c GROUP BY c.g",
  "SELECT VALUE SUM(c.n) FROM c GROUP BY c.g",
  "SELECT VALUE AVG(c.n) FROM c GROUP BY c.g",
  "SELECT VALUE MIN(c.n) FROM c GROUP BY c.g",
  "SELECT VALUE MAX(c.n) FROM c GROUP BY c.g",
  "SELECT UPPER(c.g) AS g, MAX(c.n) AS hi, COUNT(c.n) AS k FROM c WHERE c.n != 7 GROUP BY UPPER(c.g)",
  "SELECT c.g, c.pk, SUM(c.n) AS s, MIN(c.n) AS lo FROM c GROUP BY c.g, c.pk",
  "SELECT VALUE SUM(c.n) FROM c",
  "SELECT VALUE SUM(c.n) FROM c WHERE IS_NUMBER(c.n)",
  "SELECT SUM(c.n) AS s, MIN(c.n) AS lo, MAX(c.n) AS hi, COUNT(1) AS k FROM c",
];

scenario("bounded pages: GROUP BY with SUM, AVG, MIN and MAX past the deadline is the unhurried answer",
  async (t) => {
    if (!hurried) {
      t.skip("PARTITA_HURRIED_ENDPOINT is not set");
      return;
    }
    for (const q of QUERIES) {
      for (const options of [{}, { partitionKey: "p3" }]) {
        const what = `${q} ${JSON.stringify(options)}`;
        const want = await rows("unhurried", q, options);
        // every group shows (the sum over a string and an object without GROUP BY is undefined: no row)
        assert.ok(want.length > 0 || !q.includes("GROUP BY"), what);
        assert.deepEqual(await rows("hurried", q, options), want, what);
      }
    }
  }, { timeout: 180_000 });

scenario("bounded pages: COUNT and COUNT-only GROUP BY with a partition key past the deadline are the unhurried answer",
  async (t) => {
    if (!hurried) {
      t.skip("PARTITA_HURRIED_ENDPOINT is not set");
      return;
    }
    for (const q of ["SELECT VALUE COUNT(1) FROM c", "SELECT c.g, COUNT(1) AS k FROM c GROUP BY c.g"]) {
      const options = { partitionKey: "p3" };
      assert.deepEqual(await rows("hurried", q, options), await rows("unhurried", q, options), q);
    }
  }, { timeout: 180_000 });
