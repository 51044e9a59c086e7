// What the explorer asks of Partita: ordinary REST requests, plus the heat map's statistics.
import { Cosmos } from './cosmos.js';

const coll = (db, c) => ['dbs', db, 'colls', c];
const QUERY = {
  'content-type': 'application/query+json',
  'x-ms-documentdb-isquery': 'True',
  'x-ms-documentdb-query-enablecrosspartition': 'True',
};
const FEATURES = 'Aggregate, CompositeAggregate, Distinct, GroupBy, MultipleAggregates, MultipleOrderBy,'
  + ' OffsetAndLimit, OrderBy, Top, NonValueAggregate, DCount, NonStreamingOrderBy, CountIf';

/** A partition key as typed: JSON (a string, number, array for hierarchical keys) or else a plain string. */
export function partitionKeyHeader(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    v = text;
  }
  return JSON.stringify(Array.isArray(v) ? v : [v]);
}

/** The partition key of a document under a container's definition, in header form. */
export function partitionKeyOf(doc, definition) {
  const values = definition.paths.map((path) => {
    let v = doc;
    for (const part of path.split('/').filter(Boolean)) v = v == null ? undefined : v[part];
    return v === undefined ? {} : v;
  });
  return JSON.stringify(values);
}

export class Api {
  static async signIn(key) {
    const cosmos = await Cosmos.signIn(key);
    await cosmos.request('GET', []); // the account read: 401 for a wrong key
    return new Api(cosmos);
  }

  constructor(cosmos) {
    this.cosmos = cosmos;
  }

  async databases() {
    return (await this.cosmos.request('GET', ['dbs'])).body.Databases;
  }

  async containers(db) {
    return (await this.cosmos.request('GET', ['dbs', db, 'colls'])).body.DocumentCollections;
  }

  async container(db, c) {
    return (await this.cosmos.request('GET', coll(db, c))).body;
  }

  async replaceContainer(db, c, body) {
    return this.cosmos.request('PUT', coll(db, c), { body });
  }

  async ranges(db, c) {
    return (await this.cosmos.request('GET', [...coll(db, c), 'pkranges'])).body.PartitionKeyRanges;
  }

  /** One page: scoped to a partition key, or a range, or (neither) the whole container. */
  async queryPage(db, c, query, { partitionKey, rangeId, continuation, maxItemCount = 100, metrics = false } = {}) {
    // Partita's own header: answer a whole-container query itself, as the explorer has no query pipeline
    const headers = { ...QUERY, 'x-ms-max-item-count': String(maxItemCount), 'x-partita-whole-container-query': 'true' };
    if (partitionKey) headers['x-ms-documentdb-partitionkey'] = partitionKey;
    if (rangeId !== undefined) headers['x-ms-documentdb-partitionkeyrangeid'] = rangeId;
    if (continuation) headers['x-ms-continuation'] = continuation;
    if (metrics) headers['x-ms-documentdb-populatequerymetrics'] = 'true';
    const r = await this.cosmos.request('POST', [...coll(db, c), 'docs'], { body: { query, parameters: [] }, headers });
    return {
      rows: r.body.Documents,
      charge: r.charge,
      continuation: r.headers.get('x-ms-continuation'),
      session: r.headers.get('x-ms-session-token'),
      metrics: parseMetrics(r.headers.get('x-ms-documentdb-query-metrics')),
    };
  }

  async queryPlan(db, c, query) {
    const headers = { ...QUERY, 'x-ms-cosmos-is-query-plan-request': 'True',
      'x-ms-cosmos-supported-query-features': FEATURES };
    delete headers['x-ms-documentdb-isquery'];
    return (await this.cosmos.request('POST', [...coll(db, c), 'docs'], { body: { query, parameters: [] }, headers }))
      .body;
  }

  async createItem(db, c, doc, partitionKey) {
    return this.cosmos.request('POST', [...coll(db, c), 'docs'], { body: doc,
      headers: { 'x-ms-documentdb-partitionkey': partitionKey } });
  }

  async replaceItem(db, c, doc, partitionKey, etag) {
    return this.cosmos.request('PUT', [...coll(db, c), 'docs', doc.id], { body: doc,
      headers: { 'x-ms-documentdb-partitionkey': partitionKey, 'if-match': etag } });
  }

  async deleteItem(db, c, id, partitionKey, etag) {
    return this.cosmos.request('DELETE', [...coll(db, c), 'docs', id],
      { headers: { 'x-ms-documentdb-partitionkey': partitionKey, 'if-match': etag } });
  }

  /** The container's change feed from `etag` ('*': from now); answers {changes, etag, charge}. */
  async changes(db, c, etag) {
    const r = await this.cosmos.request('GET', [...coll(db, c), 'docs'], { accept: [304],
      headers: { 'a-im': 'Incremental Feed', 'if-none-match': etag, 'x-ms-max-item-count': '100' } });
    return { changes: r.status === 304 ? [] : r.body.Documents, etag: r.headers.get('etag'), charge: r.charge };
  }

  async offerOf(containerRid) {
    const offers = (await this.cosmos.request('GET', ['offers'])).body.Offers;
    return offers.find((o) => o.offerResourceId === containerRid) ?? null;
  }

  async replaceOffer(offer) {
    return this.cosmos.request('PUT', ['offers', offer._rid], { body: offer });
  }

  /** The heat map's numbers (the explorer's own endpoint, signed like a read of the container). */
  async partitions(db, c) {
    return (await this.cosmos.request('GET', [...coll(db, c), 'partitions'], { prefix: '/_explorer/api/',
      sign: coll(db, c) })).body;
  }
}

function parseMetrics(header) {
  if (!header) return null;
  return Object.fromEntries(header.split(';').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
}
