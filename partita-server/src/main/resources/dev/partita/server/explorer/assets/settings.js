// Container settings: the partition key (fixed at creation), the indexing policy and the throughput (read and change).
import { h, clear, say, failure, ru } from './dom.js';

export function settingsView(panel, api, db, coll) {
  const body = h('div', { id: 'settings' }, h('p', {}, 'Loading…'));
  panel.append(body);
  load();

  async function load() {
    try {
      const c = await api.container(db, coll);
      const [offer, ranges] = await Promise.all([api.offerOf(c._rid), api.ranges(db, coll)]);
      const policy = h('textarea', { id: 'settings-indexing', rows: 14, spellcheck: 'false' },
        JSON.stringify(c.indexingPolicy, null, 2));
      const savePolicy = h('button', { type: 'button', id: 'settings-indexing-save' }, 'Save indexing policy');
      const current = offer?.content?.offerThroughput ?? offer?.content?.offerAutopilotSettings?.maxThroughput;
      const rus = h('input', { id: 'settings-throughput', type: 'number', min: 400, step: 100,
        value: current ?? '' });
      const saveRus = h('button', { type: 'button', id: 'settings-throughput-save', disabled: !offer
        || !offer.content?.offerThroughput }, 'Change throughput');
      savePolicy.addEventListener('click', async () => {
        try {
          const r = await api.replaceContainer(db, coll, { ...c, indexingPolicy: JSON.parse(policy.value) });
          say(`Indexing policy saved, ${ru(r.charge)}`);
          load();
        } catch (e) {
          failure(e);
        }
      });
      saveRus.addEventListener('click', async () => {
        try {
          const next = structuredClone(offer);
          next.content.offerThroughput = Number(rus.value);
          const r = await api.replaceOffer(next);
          const pending = r.headers.get('x-ms-offer-replace-pending') === 'true';
          say(`Throughput set to ${rus.value} RU/s${pending ? ' (the partition splits it needs are pending)' : ''}`);
          load();
        } catch (e) {
          failure(e);
        }
      });
      clear(body,
        h('h3', {}, 'Partition key'), h('pre', { class: 'json', id: 'settings-pk' }, JSON.stringify(c.partitionKey,
          null, 2)),
        h('p', {}, `${ranges.length} physical partition${ranges.length === 1 ? '' : 's'}`,
          h('span', { id: 'settings-partitions', 'data-count': ranges.length })),
        h('h3', {}, 'Throughput'),
        offer ? h('p', {}, offer.content.offerThroughput ? `Manual: ${offer.content.offerThroughput} RU/s`
          : `Autoscale up to ${current} RU/s`) : h('p', {}, 'No throughput of its own (shared or serverless).'),
        h('div', { class: 'row' }, rus, h('span', {}, 'RU/s'), saveRus),
        h('h3', {}, 'Indexing policy'), policy, h('div', { class: 'row' }, savePolicy));
    } catch (e) {
      failure(e);
    }
  }
}
