// Indexing policies in every shape the SDKs send: the legacy ones (root "/", included paths' `indexes` with
// kind/dataType/precision, mode lazy), spatial indexes and the geospatialConfig's boundingBox rules, and what a read
// returns for each (as the service does: see IndexingPolicyShape); the index transformation progress of a read with
// populateQuotaInfo; the service's 400s for bad paths. The shapes are those of the SDK's own functional tests
// (container.spec.ts, spatial.spec.ts, spatialIndexBoundingBox.spec.ts).
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid, rejectsWith, describe } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("indexing") }));
});

const ETAG = '/"_etag"/?';
const ALL_SPATIAL_TYPES = ["Point", "LineString", "Polygon", "MultiPolygon"];

/** The checks of container.spec.ts's checkDefaultIndexingPolicyPaths, plus: no legacy `indexes` on read. */
function assertDefaultPaths(policy) {
  assert.deepEqual(policy.includedPaths, [{ path: "/*" }]);
  assert.deepEqual(policy.excludedPaths, [{ path: ETAG }]);
}

scenario("indexing: policies without paths, without indexes or without precision read back as the default", async () => {
  for (const indexingPolicy of [
    undefined,
    {},
    { includedPaths: [{ path: "/*" }] },
    {
      includedPaths: [
        {
          path: "/*",
          indexes: [
            { kind: "Range", dataType: "String" },
            { kind: "Range", dataType: "Number" },
          ],
        },
      ],
    },
    { includedPaths: [{ path: "/*", indexes: [{ kind: "Hash", dataType: "String", precision: 3 }] }] },
  ]) {
    const { resource, container } = await db.containers.create({ id: uid("c"), partitionKey: "/pk", indexingPolicy });
    assert.equal(resource.indexingPolicy.indexingMode, "consistent");
    assertDefaultPaths(resource.indexingPolicy);
    assertDefaultPaths((await container.read()).resource.indexingPolicy);
  }
});

scenario("indexing: the legacy root '/', a Hash index and mode lazy are read back as '/*' and consistent", async () => {
  const { container } = await db.containers.create({
    id: uid("c"),
    partitionKey: "/pk",
    indexingPolicy: {
      automatic: true,
      indexingMode: "lazy",
      includedPaths: [{ path: "/", indexes: [{ kind: "Hash", dataType: "Number", precision: 2 }] }],
      excludedPaths: [{ path: '/"systemMetadata"/*' }],
    },
  });
  const { resource } = await container.read();
  assert.equal(resource.indexingPolicy.indexingMode, "consistent");
  assert.equal(resource.indexingPolicy.automatic, true);
  assert.deepEqual(resource.indexingPolicy.includedPaths, [{ path: "/*" }]);
  // the service appends its own exclusion of _etag after the policy's
  assert.deepEqual(resource.indexingPolicy.excludedPaths, [{ path: '/"systemMetadata"/*' }, { path: ETAG }]);
  await container.items.create({ id: "a", pk: "p", n: 3, systemMetadata: { x: 1 } });
  const { resources } = await container.items.query("SELECT VALUE c.id FROM c WHERE c.n = 3").fetchAll();
  assert.deepEqual(resources, ["a"]);
});

for (const upsert of [false, true]) {
  scenario(`spatial: a legacy Spatial index on a quoted path, then ST_DISTANCE (${upsert ? "upsert" : "create"})`, async () => {
    const { resource, container } = await db.containers.create({
      id: uid("spatial container"),
      indexingPolicy: {
        includedPaths: [{ path: '/"Location"/?', indexes: [{ kind: "Spatial", dataType: "Point" }] }, { path: "/" }],
      },
    });
    assert.deepEqual(resource.indexingPolicy.includedPaths, [{ path: '/"Location"/?' }, { path: "/*" }]);
    assert.deepEqual(resource.indexingPolicy.spatialIndexes, [{ path: '/"Location"/?', types: ALL_SPATIAL_TYPES }]);
    const write = (doc) => (upsert ? container.items.upsert(doc) : container.items.create(doc));
    await write({ id: "location1", Location: { type: "Point", coordinates: [20.0, 20.0] } });
    await write({ id: "location2", Location: { type: "Point", coordinates: [100.0, 100.0] } });
    const query =
      "SELECT * FROM root WHERE (ST_DISTANCE(root.Location, {type: 'Point', coordinates: [20.1, 20]}) < 20000) ";
    const { resources } = await container.items.query(query).fetchAll();
    assert.deepEqual(resources.map((r) => r.id), ["location1"]);
  });
}

scenario("spatial: spatialIndexes are stored with every type, and ST_WITHIN/ST_INTERSECTS/ST_ISVALID work", async () => {
  const { resource, container } = await db.containers.create({
    id: uid("c"),
    partitionKey: "/pk",
    indexingPolicy: { spatialIndexes: [{ path: "/location/*", types: ["Point", "Polygon"] }] },
  });
  assert.deepEqual(resource.indexingPolicy.spatialIndexes, [{ path: "/location/*", types: ALL_SPATIAL_TYPES }]);
  assert.deepEqual((await container.read()).resource.indexingPolicy.spatialIndexes, resource.indexingPolicy.spatialIndexes);
  await container.items.create({ id: "in", pk: "p", location: { type: "Point", coordinates: [1, 1] } });
  await container.items.create({ id: "out", pk: "p", location: { type: "Point", coordinates: [5, 5] } });
  await container.items.create({ id: "bad", pk: "p", location: { type: "Point", coordinates: [0, 95] } });
  const square = "{'type':'Polygon','coordinates':[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}";
  const ids = async (q) => (await container.items.query(q).fetchAll()).resources.sort();
  assert.deepEqual(await ids(`SELECT VALUE c.id FROM c WHERE ST_WITHIN(c.location, ${square})`), ["in"]);
  assert.deepEqual(await ids(`SELECT VALUE c.id FROM c WHERE ST_INTERSECTS(c.location, ${square})`), ["in"]);
  assert.deepEqual(await ids("SELECT VALUE c.id FROM c WHERE NOT ST_ISVALID(c.location)"), ["bad"]);
  const { resources: detail } = await container.items
    .query("SELECT VALUE ST_ISVALIDDETAILED(c.location) FROM c WHERE c.id = 'bad'")
    .fetchAll();
  assert.equal(detail[0].valid, false);
  assert.equal(typeof detail[0].reason, "string");
});

scenario("spatial: a Geometry container's spatial index needs a boundingBox, a Geography one's has none", async () => {
  const geoNoBox = await db.containers.create({
    id: uid("geo-no-bbox"),
    partitionKey: { paths: ["/id"] },
    indexingPolicy: { spatialIndexes: [{ path: "/location/?", types: ["Point"] }] },
    geospatialConfig: { type: "Geography" },
  });
  assert.equal(geoNoBox.resource.indexingPolicy.spatialIndexes.length, 1);
  assert.equal(geoNoBox.resource.indexingPolicy.spatialIndexes[0].path, "/location/?");
  assert.equal(geoNoBox.resource.indexingPolicy.spatialIndexes[0].boundingBox, undefined);
  const box = { xmin: 0, ymin: 0, xmax: 100, ymax: 100 };
  const geomBox = await db.containers.create({
    id: uid("geom-with-bbox"),
    partitionKey: { paths: ["/id"] },
    indexingPolicy: { spatialIndexes: [{ path: "/location/?", types: ["Point", "Polygon"], boundingBox: box }] },
    geospatialConfig: { type: "Geometry" },
  });
  assert.deepEqual(geomBox.resource.indexingPolicy.spatialIndexes[0].boundingBox, box);
  assert.equal(geomBox.resource.geospatialConfig.type, "Geometry");
  const geomNoBox = await rejectsWith(
    db.containers.create({
      id: uid("geom-no-bbox"),
      partitionKey: { paths: ["/id"] },
      indexingPolicy: { spatialIndexes: [{ path: "/location/?", types: ["Point"] }] },
      geospatialConfig: { type: "Geometry" },
    }),
    400,
  );
  assert.match(geomNoBox.message, /boundingBox/);
  assert.match(geomNoBox.message, /Geometry/);
  const geoBox = await rejectsWith(
    db.containers.create({
      id: uid("geo-with-bbox"),
      partitionKey: { paths: ["/id"] },
      indexingPolicy: {
        spatialIndexes: [
          { path: "/location/?", types: ["Point"], boundingBox: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 } },
        ],
      },
      geospatialConfig: { type: "Geography" },
    }),
    400,
  );
  assert.match(geoBox.message, /boundingBox/);
  assert.match(geoBox.message, /Geography/);
});

scenario("containers: a replace adds a Geometry spatial index; the partition key and id cannot change", async () => {
  const id = uid("sample container");
  const { resource: def, container } = await db.containers.create({
    id,
    partitionKey: "/id",
    indexingPolicy: { indexingMode: "consistent" },
    throughput: 400,
  });
  def.indexingPolicy.spatialIndexes = [
    { path: "/region/?", types: ["Polygon"], boundingBox: { xmin: 0, ymin: 0, xmax: 10, ymax: 10 } },
  ];
  def.geospatialConfig.type = "Geometry";
  const { resource: replaced } = await container.replace(def);
  assert.equal(replaced.geospatialConfig.type, "Geometry");
  assert.deepEqual(replaced.indexingPolicy.spatialIndexes[0].types, ALL_SPATIAL_TYPES);
  await rejectsWith(container.replace({ ...def, partitionKey: { paths: ["/key"] } }), 400);
  await rejectsWith(container.replace({ ...def, id: "try_to_replace_id" }), 400);
  assert.equal((await container.read()).resource.id, id);
});

scenario("containers: a read with populateQuotaInfo reports the index transformation progress, no lazy progress", async () => {
  for (const indexingPolicy of [undefined, { indexingMode: "none", automatic: false }]) {
    const { container } = await db.containers.create({ id: uid("c"), indexingPolicy });
    const { headers } = await container.read({ populateQuotaInfo: true });
    assert.equal(headers["x-ms-documentdb-collection-index-transformation-progress"], "100");
    assert.equal(headers["x-ms-documentdb-collection-lazy-indexing-progress"], undefined);
  }
});

scenario("indexing: unparsable paths and a policy without the root are the service's 400s", async () => {
  const create = (indexingPolicy) => db.containers.create({ id: uid("bad"), partitionKey: "/pk", indexingPolicy });
  for (const [indexingPolicy, position] of [
    [{ includedPaths: [{ path: "/*" }], excludedPaths: [{ path: "/a b/?" }] }, 2],
    [{ includedPaths: [{ path: "/*" }], excludedPaths: [{ path: "/a/*/b/?" }] }, 3],
    [{ includedPaths: [{ path: "/*" }], excludedPaths: [{ path: "/a" }] }, 1],
    [{ includedPaths: [{ path: "a/?" }] }, 0],
  ]) {
    const e = await rejectsWith(create(indexingPolicy), 400);
    assert.match(e.message, new RegExp(`could not be accepted, failed near position '${position}'`), describe(e));
  }
  const noRoot = await rejectsWith(create({ includedPaths: [{ path: "/a/?" }] }), 400);
  assert.match(noRoot.message, /The special mandatory indexing path "\/" is not provided/);
  await rejectsWith(create({ includedPaths: [{ path: "/*", indexes: [{ kind: "BTree", dataType: "String" }] }] }), 400);
  const noneAutomatic = await rejectsWith(create({ indexingMode: "none", automatic: true }), 400);
  assert.match(noneAutomatic.message, /Indexing mode value cannot be 'none' when automatic indexing is specified as 'true'/);
});
