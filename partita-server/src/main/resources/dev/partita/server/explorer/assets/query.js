// The query editor: runs a query as the SDK would (the plan first, then page by page on each physical partition it
// targets), and shows the rows, the request charge, the pages, the partitions touched, index use and the plan.
import { partitionKeyHeader } from './api.js';
import { h, clear, say, failure, ru } from './dom.js';

/** True when the rows of each partition can simply be concatenated (nothing for the SDK to merge). */
function streamable(plan) {
  const q = plan.queryInfo ?? {};
  return !q.rewrittenQuery && !(q.orderBy?.length) && !(q.aggregates?.length) && !(q.groupByExpressions?.length)
    && (!q.distinctType || q.distinctType === 'None') && q.top == null && q.offset == null && q.limit == null
    && !q.hasSelectValue;
}

export function queryView(panel, api, db, coll) {
  const text = h('textarea', { id: 'query-text', rows: 5, spellcheck: 'false' }, 'SELECT * FROM c');
  const pk = h('input', { id: 'query-pk', placeholder: 'partition key (optional)', size: 30 });
  const run = h('button', { type: 'button', id: 'query-run' }, 'Run');
  const stats = h('dl', { id: 'query-stats', class: 'stats' });
  const rows = h('pre', { id: 'query-rows', class: 'json' });
  const plan = h('pre', { id: 'query-plan', class: 'json' });

  run.addEventListener('click', async () => {
    clear(stats);
    rows.textContent = '';
    plan.textContent = '';
    run.disabled = true;
    try {
      const query = text.value;
      const p = await api.queryPlan(db, coll, query);
      plan.textContent = JSON.stringify(p, null, 2);
      const result = await execute(api, db, coll, query, p, pk.value.trim());
      rows.textContent = JSON.stringify(result.rows, null, 2);
      const m = result.metrics;
      const entries = [['Rows', result.rows.length], ['Request charge', ru(result.charge)], ['Pages', result.pages],
        ['Physical partitions touched', result.touched.size],
        ['Documents loaded', m.retrievedDocumentCount], ['Found through the index', m.indexHitDocumentCount],
        ['Index use', m.retrievedDocumentCount ? `${Math.round(100 * m.indexHitDocumentCount
          / m.retrievedDocumentCount)}%` : (m.indexHitDocumentCount ? 'index only' : 'no documents read')]];
      clear(stats, entries.map(([k, v]) => [h('dt', {}, k), h('dd', { 'data-stat': k }, String(v))]));
      say(`${result.rows.length} rows, ${ru(result.charge)}`);
    } catch (e) {
      failure(e);
    } finally {
      run.disabled = false;
    }
  });

  panel.append(text, h('div', { class: 'row' }, pk, run), stats,
    h('div', { class: 'split-view' }, h('section', {}, h('h3', {}, 'Rows'), rows),
      h('section', {}, h('h3', {}, 'Query plan'), plan)));
}

async function execute(api, db, coll, query, plan, key) {
  const out = { rows: [], charge: 0, pages: 0, touched: new Set(),
    metrics: { retrievedDocumentCount: 0, indexHitDocumentCount: 0 } };
  const drain = async (scope, touched) => {
    let continuation;
    do {
      const page = await api.queryPage(db, coll, query, { ...scope, continuation, metrics: true });
      out.rows.push(...page.rows);
      out.charge += page.charge;
      out.pages += 1;
      // the range that served a page names itself in its session token (range:lsn)
      (touched ?? [page.session?.split(':')[0]]).forEach((t) => t && out.touched.add(t));
      for (const k of Object.keys(out.metrics)) out.metrics[k] += page.metrics?.[k] ?? 0;
      continuation = page.continuation;
    } while (continuation);
  };
  const ranges = await api.ranges(db, coll);
  const targets = ranges.filter((r) => (plan.queryRanges ?? [{ min: '', max: 'FF' }]).some((q) =>
    r.minInclusive < q.max && q.min < r.maxExclusive || (q.isMinInclusive && q.isMaxInclusive && q.min === q.max
      && r.minInclusive <= q.min && q.min < r.maxExclusive)));
  if (key) {
    await drain({ partitionKey: partitionKeyHeader(key) }, null);
  } else if (streamable(plan)) {
    for (const r of targets) await drain({ rangeId: r.id }, null);
  } else {
    // the SDK would merge per-partition results; Partita runs the whole query at once when no range is named
    await drain({}, targets.map((r) => r.id));
  }
  return out;
}
