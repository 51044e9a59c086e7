// Vector, full-text and hybrid search through the JavaScript SDK on one and on several physical partitions: the SDK's
// non-streaming ORDER BY and hybrid pipelines merge the partitions' answers into the service's answer.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid, sorted } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
const containers = {};
const WORDS = ["swimming", "runs", "bike", "ocean", "mountain", "river", "coffee", "morning", "training", "race"];
const N = 40;
// a small deterministic generator (no Math.random: the expectations are computed from the same documents)
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const docs = [];
for (let i = 0; i < N; i++) {
  const v = () => Array.from({ length: 4 }, () => Math.round((rnd() * 2 - 1) * 1000) / 1000);
  docs.push({
    id: `s${String(i).padStart(2, "0")}`, cat: `c${i % 4}`, cos: v(), euc: v(), dot: v(),
    i8: Array.from({ length: 4 }, () => Math.floor(rnd() * 256) - 128),
    text: `${WORDS[i % 10]} ${WORDS[(i * 3 + 1) % 10]} ${WORDS[(i * 7 + 2) % 10]}`,
  });
}
const definition = (id) => ({
  id, partitionKey: { paths: ["/cat"] },
  vectorEmbeddingPolicy: { vectorEmbeddings: [
    { path: "/cos", dataType: "float32", dimensions: 4, distanceFunction: "cosine" },
    { path: "/euc", dataType: "float32", dimensions: 4, distanceFunction: "euclidean" },
    { path: "/dot", dataType: "float32", dimensions: 4, distanceFunction: "dotproduct" },
    { path: "/i8", dataType: "int8", dimensions: 4, distanceFunction: "euclidean" },
  ] },
  fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
  indexingPolicy: {
    includedPaths: [{ path: "/*" }],
    excludedPaths: [{ path: "/cos/*" }, { path: "/euc/*" }, { path: "/dot/*" }, { path: "/i8/*" }],
    vectorIndexes: [{ path: "/cos", type: "flat" }, { path: "/euc", type: "quantizedFlat" }, { path: "/dot", type: "diskANN" }],
    fullTextIndexes: [{ path: "/text" }],
  },
});
let database;
before(async () => {
  ({ database } = await client.databases.create({ id: uid("search") }));
  ({ container: containers.one } = await database.containers.create(definition("one")));
  ({ container: containers.five } = await database.containers.create(definition("five"), { offerThroughput: 30000 }));
  for (const c of Object.values(containers)) {
    await Promise.all(docs.map((d) => c.items.create(d)));
  }
});

const all = async (c, query, options) => (await containers[c].items.query(query, options).fetchAll()).resources;
const dotp = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const measure = {
  cosine: (a, b) => dotp(a, b) / Math.sqrt(dotp(a, a) * dotp(b, b)),
  dotproduct: dotp,
  euclidean: (a, b) => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]) ** 2, 0)),
};
const nearest = (path, fn, q, k, keep = () => true) => docs.filter(keep)
  .map((d) => ({ id: d.id, s: measure[fn](d[path], q) }))
  .sort((x, y) => (fn === "euclidean" ? x.s - y.s : y.s - x.s)).slice(0, k).map((x) => x.id);

for (const c of ["one", "five"]) {
  scenario(`search (${c}): nearest neighbours by each distance function, with the score projected`, async () => {
    const q = [0.5, 0.5, -0.5, 0.1];
    for (const [path, fn] of [["cos", "cosine"], ["euc", "euclidean"], ["dot", "dotproduct"]]) {
      const rows = await all(c, {
        query: `SELECT TOP 5 c.id, VectorDistance(c.${path}, @q) AS score FROM c ORDER BY VectorDistance(c.${path}, @q)`,
        parameters: [{ name: "@q", value: q }],
      });
      assert.deepEqual(rows.map((r) => r.id), nearest(path, fn, q, 5), path);
      const best = docs.find((d) => d.id === rows[0].id);
      assert.ok(Math.abs(rows[0].score - measure[fn](best[path], q)) < 1e-6, path);
    }
    const qi = [10, -20, 30, 5];
    const i8 = await all(c, { query: "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.i8, @q)", parameters: [{ name: "@q", value: qi }] });
    assert.deepEqual(i8.map((r) => r.id), nearest("i8", "euclidean", qi, 3));
  });

  scenario(`search (${c}): nearest neighbours with a filter and with a partition key`, async () => {
    const q = [-0.3, 0.8, 0.1, -0.6];
    const filtered = await all(c, { query: "SELECT TOP 3 c.id FROM c WHERE c.cat = 'c1' ORDER BY VectorDistance(c.cos, @q)", parameters: [{ name: "@q", value: q }] });
    assert.deepEqual(filtered.map((r) => r.id), nearest("cos", "cosine", q, 3, (d) => d.cat === "c1"));
    const scoped = await all(c, { query: "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.cos, @q, true)", parameters: [{ name: "@q", value: q }] }, { partitionKey: "c2" });
    assert.deepEqual(scoped.map((r) => r.id), nearest("cos", "cosine", q, 3, (d) => d.cat === "c2"));
  });

  scenario(`search (${c}): an unbounded vector ORDER BY gets its plan; the SDK refuses it unless told to buffer it all`, async () => {
    const q = [0.2, -0.4, 0.9, 0.3];
    const query = { query: "SELECT c.id FROM c ORDER BY VectorDistance(c.cos, @q)", parameters: [{ name: "@q", value: q }] };
    // the service plans it (hasNonStreamingOrderBy, no TOP or LIMIT) and the SDK's own check refuses it
    await assert.rejects(all(c, query, { forceQueryPlan: true }), (e) => /without TOP or LIMIT/.test(e.message));
    if (c === "five") {
      // sent whole first, it comes back as the 400 that carries the plan, and the same check refuses it
      await assert.rejects(all(c, query), (e) => /without TOP or LIMIT/.test(e.message));
    }
    // told to, the SDK drains every range page by page and merges the ranges by similarity
    for (const forceQueryPlan of [false, true]) {
      const rows = await all(c, query, { allowUnboundedNonStreamingQueries: true, maxItemCount: 7, forceQueryPlan });
      assert.deepEqual(rows.map((r) => r.id), nearest("cos", "cosine", q, N), `forceQueryPlan ${forceQueryPlan}`);
    }
  });

  scenario(`search (${c}): full-text contains, all and any with stemming and fuzzy terms`, async () => {
    const ids = async (where) => (await all(c, `SELECT VALUE c.id FROM c WHERE ${where}`)).sort();
    const expect = (f) => docs.filter((d) => f(d.text)).map((d) => d.id).sort();
    assert.deepEqual(await ids("FullTextContains(c.text, 'running')"), expect((t) => t.includes("runs")));
    assert.deepEqual(await ids("FullTextContainsAll(c.text, 'OCEAN', 'river')"), expect((t) => t.includes("ocean") && t.includes("river")));
    assert.deepEqual(await ids("FullTextContainsAny(c.text, 'coffee', 'bikes')"), expect((t) => t.includes("coffee") || t.includes("bike")));
    assert.deepEqual(await ids("FullTextContains(c.text, {term: 'mountian', distance: 2})"), expect((t) => t.includes("mountain")));
  });

  scenario(`search (${c}): RRF of vector distance and full-text score, with and without weights`, async () => {
    const q = [0.5, 0.5, -0.5, 0.1];
    const query = (w) => ({ query: `SELECT TOP 5 c.id FROM c ORDER BY RANK RRF(VectorDistance(c.cos, @q), FullTextScore(c.text, 'ocean', 'coffee')${w})`, parameters: [{ name: "@q", value: q }] });
    const plain = await all(c, query(""));
    assert.deepEqual(plain.map((r) => r.id), rrf(q, 1, 1));
    const weighted = await all(c, query(", [3, 0.5]"));
    assert.deepEqual(weighted.map((r) => r.id), rrf(q, 3, 0.5));
  });
}

// RRF as the JS SDK computes it: equal scores share a rank (dense ranks), sum(weight / (60 + rank)); BM25 with
// k1 = 1.2, b = 0.75 over all partitions' statistics. Ties keep the coalesced order; the expectations avoid ties.
function rrf(q, wv, wt) {
  const vector = new Map(docs.map((d) => [d.id, measure.cosine(d.cos, q)]));
  const df = (w) => docs.filter((d) => d.text.split(" ").includes(w)).length;
  const bm25 = (tf, n) => (tf === 0 ? 0 : Math.log(1 + (N - n + 0.5) / (n + 0.5)) * tf * 2.2 / (tf + 1.2));
  const text = new Map(docs.map((d) => [d.id, ["ocean", "coffee"].reduce((s, w) => s + bm25(d.text.split(" ").filter((x) => x === w).length, df(w)), 0)]));
  const fused = new Map();
  for (const [scores, w] of [[vector, wv], [text, wt]]) {
    const distinct = [...new Set(scores.values())].sort((a, b) => b - a);
    for (const [id, s] of scores) fused.set(id, (fused.get(id) ?? 0) + w / (60 + distinct.indexOf(s) + 1));
  }
  return [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([id]) => id);
}

scenario("search: BM25 ranking over all partitions equals the hand-computed expectation", async () => {
  const { container } = await database.containers.create({
    id: "bm25", partitionKey: { paths: ["/id"] },
    fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
    indexingPolicy: { fullTextIndexes: [{ path: "/text" }] },
  }, { offerThroughput: 30000 });
  const corpus = { a: "fox fox jumps high", b: "fox and dog", d: "lazy dog", e: "a quick brown fox runs far", f: "cats sleep all", g: "birds sing songs" };
  await Promise.all(Object.entries(corpus).map(([id, text]) => container.items.create({ id, text })));
  const { resources } = await container.items.query("SELECT TOP 4 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'fox', 'dog')").fetchAll();
  // N = 6; 19 terms after stop words ("and", "a" go): 4 + 2 + 2 + 5 + 3 + 3; fox in 3 documents, dog in 2
  const avg = 19 / 6;
  const idf = (n) => Math.log(1 + (6 - n + 0.5) / (n + 0.5));
  const s = (n, tf, len) => idf(n) * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / avg));
  const scores = { a: s(3, 2, 4), b: s(3, 1, 2) + s(2, 1, 2), d: s(2, 1, 2), e: s(3, 1, 5) };
  assert.deepEqual(resources.map((r) => r.id), Object.keys(scores).sort((x, y) => scores[y] - scores[x]));
});

scenario("search: policy validation errors and a refused replace", async () => {
  const bad = [
    { vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/v", dataType: "float32", dimensions: 506, distanceFunction: "cosine" }] },
      indexingPolicy: { vectorIndexes: [{ path: "/v", type: "flat" }], excludedPaths: [{ path: "/v/*" }] } },
    { vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/v", dataType: "float32", dimensions: 3, distanceFunction: "cosine" }] },
      indexingPolicy: { vectorIndexes: [{ path: "/v", type: "hnsw" }] } },
    { fullTextPolicy: { defaultLanguage: "nl-NL", fullTextPaths: [] } },
  ];
  for (const b of bad) {
    await assert.rejects(database.containers.create({ id: uid("bad"), partitionKey: { paths: ["/pk"] }, ...b }), (e) => e.code === 400);
  }
  const { resource } = await containers.one.read();
  resource.vectorEmbeddingPolicy.vectorEmbeddings[0].dimensions = 8;
  await assert.rejects(containers.one.replace(resource), (e) => e.code === 400);
});

// From the SDKs' own vector-policy tests (JS vectorEmbeddingPolicy.spec, Python test_vector_policy): the service's
// words for each refusal, a vector index that needs no exclusion from the range index, and a replace that may not
// change the vector indexes.
scenario("search: the service's words for refused vector policies", async () => {
  const embedded = { vectorEmbeddings: [{ path: "/vector1", dataType: "float32", dimensions: 3, distanceFunction: "euclidean" }] };
  const embedding = (e) => ({ vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/v", dataType: "float32", dimensions: 3, distanceFunction: "euclidean", ...e }] } });
  const cases = [
    [{ indexingPolicy: { vectorIndexes: [{ path: "/vector1", type: "flat" }] } }, "Vector Indexing Policy's path::\\/vector1 not matching in Embedding's path"],
    [{ vectorEmbeddingPolicy: embedded, indexingPolicy: { vectorIndexes: [{ path: "/vector2", type: "flat" }] } }, "vector2 not matching in Embedding's path"],
    [{ vectorEmbeddingPolicy: embedded, indexingPolicy: { vectorIndexes: [{ path: "/vector1", type: "notFlat" }] } }, "Index Type::notFlat is invalid"],
    [embedding({ dataType: "float33" }), "Vector Embedding Policy has invalid DataType"],
    [embedding({ dimensions: -1 }), "Vector Embedding Policy has invalid Dimensions:-1, it should be positive integer"],
    [embedding({ dimensions: 5000 }), "Vector Embedding Policy has Dimensions:5000 which is more than max:4096"],
    [embedding({ distanceFunction: "handMeasured" }), "Vector Embedding Policy has invalid DistanceFunction:handMeasured"],
  ];
  for (const [definition, words] of cases) {
    await assert.rejects(database.containers.create({ id: uid("bad"), ...definition }),
      (e) => e.code === 400 && e.body.message.includes(words), words);
  }
});

scenario("search: a vector index without a range-index exclusion; its indexes survive a replace unchanged only", async () => {
  const id = uid("vectors");
  const { container } = await database.containers.create({ id,
    vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/vector1", dataType: "float32", dimensions: 3, distanceFunction: "euclidean" }] },
    indexingPolicy: { vectorIndexes: [{ path: "/vector1", type: "flat" }] } });
  await container.items.create({ id: "a", vector1: [1, 2, 3] });
  await container.items.create({ id: "b", vector1: [3, 2, 1] });
  const { resources } = await container.items.query("SELECT TOP 1 c.id FROM c ORDER BY VectorDistance(c.vector1, [1, 2, 2.5])").fetchAll();
  assert.deepEqual(resources, [{ id: "a" }]);
  await assert.rejects(container.replace({ id, indexingPolicy: { vectorIndexes: [{ path: "/vector1", type: "quantizedFlat" }] } }),
    (e) => e.code === 400 && e.body.message.includes("Vector Indexing Policy cannot be changed in Collection Replace"));
  const { resource } = await container.read();
  const { resource: replaced } = await container.replace({ ...resource, defaultTtl: 3600 });
  assert.equal(replaced.defaultTtl, 3600);
});

scenario("search: a full-text path's language may be a locale id", async () => {
  const { resource } = await database.containers.create({ id: uid("lcid"),
    fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text1", language: "1033" }, { path: "/text2", language: "en-US" }] },
    indexingPolicy: { fullTextIndexes: [{ path: "/text1" }, { path: "/text2" }] } });
  assert.equal(resource.fullTextPolicy.fullTextPaths[0].language, "1033");
});

// From the SDK's fullTextSearch.spec: ORDER BY RANK without TOP or LIMIT is the SDK's own choice to allow, and an RRF
// component over a path no document has is neutral (its scores keep their places in componentScores).
scenario("search: an unbounded ORDER BY RANK, and an RRF with components no document has", async () => {
  const rows = await all("five", "SELECT c.id FROM c WHERE FullTextContains(c.text, 'ocean') ORDER BY RANK FullTextScore(c.text, 'ocean')",
    { allowUnboundedNonStreamingQueries: true });
  assert.deepEqual(sorted(rows.map((r) => r.id)), docs.filter((d) => d.text.split(" ").includes("ocean")).map((d) => d.id));
  const q = [0.5, 0.5, -0.5, 0.1];
  const query = (extra) => ({ query: `SELECT TOP 5 c.id FROM c ORDER BY RANK RRF(VectorDistance(c.cos, @q), ${extra}FullTextScore(c.text, 'ocean', 'coffee'))`,
    parameters: [{ name: "@q", value: q }] });
  const two = await all("five", query(""));
  const four = await all("five", query("VectorDistance(c.image, @q), VectorDistance(c.backup, @q), "));
  assert.deepEqual(four.map((r) => r.id), two.map((r) => r.id));
  assert.deepEqual(two.map((r) => r.id), rrf(q, 1, 1));
});

scenario("search: the README's retrieval query", async () => {
  // the five lines of README.md, on this suite's client and database
  const { container } = await database.containers.createIfNotExists({ id: "docs", partitionKey: { paths: ["/tenant"] }, vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/embedding", dataType: "float32", dimensions: 3, distanceFunction: "cosine" }] }, fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] }, indexingPolicy: { excludedPaths: [{ path: "/embedding/*" }], vectorIndexes: [{ path: "/embedding", type: "diskANN" }], fullTextIndexes: [{ path: "/text" }] } });
  await container.items.upsert({ id: "1", tenant: "t1", text: "Solar panels on the roof", embedding: [0.1, 0.9, 0.2] });
  const { resources } = await container.items.query({ query: "SELECT TOP 5 c.id, c.text FROM c ORDER BY RANK RRF(VectorDistance(c.embedding, @q), FullTextScore(c.text, 'solar', 'roofs'))", parameters: [{ name: "@q", value: [0.1, 0.8, 0.3] }] }).fetchAll();
  assert.deepEqual(resources, [{ id: "1", text: "Solar panels on the roof" }]);
});
