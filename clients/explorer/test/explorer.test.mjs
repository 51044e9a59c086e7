// The explorer as a person uses it, in headless Chromium: sign in, browse, edit an item, run a query, watch the heat
// map light up a hot partition under load (429s with enforcement on), change the throughput and see the split.
// ExplorerBrowserTest starts Partita with the data and passes PARTITA_ENDPOINT, PARTITA_KEY, PARTITA_SCREENSHOTS and
// CHROMIUM.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Cosmos } from '../../../partita-server/src/main/resources/dev/partita/server/explorer/assets/cosmos.js';

const endpoint = process.env.PARTITA_ENDPOINT;
const key = process.env.PARTITA_KEY;
const shots = process.env.PARTITA_SCREENSHOTS ?? 'target/screenshots';
const orders = ['dbs', 'shop', 'colls', 'orders'];
let browser;
let page;
let rest;

before(async () => {
  mkdirSync(shots, { recursive: true });
  rest = await Cosmos.signIn(key, endpoint);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
});

after(async () => {
  await browser?.close();
});

/** Waits for a selector; a timeout names what the explorer's status line said (its error, if any). */
async function waitFor(selector, options = {}) {
  try {
    return await page.waitForSelector(selector, { state: 'attached', ...options });
  } catch (e) {
    throw new Error(`${e.message}\n  the explorer's status line: ${await page.textContent('#status')}`);
  }
}

const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

test('the explorer refuses a wrong key and signs in with the right one', async () => {
  await page.goto(`${endpoint}_explorer/`);
  await page.fill('#key', 'bm90IHRoZSBrZXk=');
  await page.click('#sign-in-form button[type=submit]');
  await waitFor('#sign-in-error:has-text("refused")');
  assert.equal(await page.isVisible('#workspace'), false);
  await page.fill('#key', key);
  await page.click('#sign-in-form button[type=submit]');
  await waitFor('#tree details[data-db="shop"] button[data-container="orders"]');
  assert.equal(await page.evaluate(() => sessionStorage.length), 1);
});

test('the statistics endpoint gives nothing without the key', async () => {
  const res = await fetch(`${endpoint}_explorer/api/dbs/shop/colls/orders/partitions`);
  assert.equal(res.status, 401);
});

test('browse a partition and edit an item, etag-checked', async () => {
  await page.click('button[data-container="orders"]');
  await page.fill('#items-pk', 'tenant-1');
  await page.click('#items-load');
  await page.click('#items-list button[data-id="order-1"]');
  const doc = JSON.parse(await page.inputValue('#item-json'));
  assert.equal(doc.tenant, 'tenant-1');
  doc.status = 'shipped';
  await page.fill('#item-json', JSON.stringify(doc, null, 2));
  await page.click('#item-save');
  await waitFor('#status:has-text("Saved order-1")');
  const stored = await rest.request('GET', [...orders, 'docs', 'order-1'],
    { headers: { 'x-ms-documentdb-partitionkey': '["tenant-1"]' } });
  assert.equal(stored.body.status, 'shipped');

  // someone else changes it: the explorer's copy is stale and its save is refused
  await rest.request('PUT', [...orders, 'docs', 'order-1'], { body: { ...stored.body, status: 'returned' },
    headers: { 'x-ms-documentdb-partitionkey': '["tenant-1"]' } });
  await page.click('#item-save');
  await waitFor('#status:has-text("changed since you opened it")');
  await shot('items');
});

test('run a query and see its charge, pages and partitions', async () => {
  await page.click('#tabs button[data-tab="query"]');
  await page.fill('#query-text', 'SELECT c.id, c.total FROM c WHERE c.total > 10 ORDER BY c.total DESC');
  await page.click('#query-run');
  await waitFor('#query-stats dd[data-stat="Request charge"]');
  const charge = await page.textContent('#query-stats dd[data-stat="Request charge"]');
  assert.match(charge, /^[1-9][0-9]*\.[0-9]{2} RU$/);
  assert.ok(Number(await page.textContent('#query-stats dd[data-stat="Rows"]')) > 0);
  assert.ok((await page.textContent('#query-plan')).includes('"orderBy"'));
  await shot('query');
});

test('read the settings and change the indexing policy', async () => {
  await page.click('#tabs button[data-tab="settings"]');
  await waitFor('#settings-indexing');
  assert.match(await page.textContent('#settings-pk'), /"\/tenant"/);
  assert.equal(await page.inputValue('#settings-throughput'), '400');
  const policy = JSON.parse(await page.inputValue('#settings-indexing'));
  policy.excludedPaths.push({ path: '/notes/*' });
  await page.fill('#settings-indexing', JSON.stringify(policy, null, 2));
  await page.click('#settings-indexing-save');
  await waitFor('#status:has-text("Indexing policy saved")');
  const stored = await rest.request('GET', orders);
  assert.ok(stored.body.indexingPolicy.excludedPaths.some((p) => p.path === '/notes/*'));
});

test('the heat map lights up the hot partition and shows its 429s, then the split', async () => {
  await page.click('#tabs button[data-tab="heatmap"]');
  await waitFor('#partitions tr[data-partition="0"]');
  const stop = load();
  try {
    await waitFor('#partitions tr[data-live="true"][data-throttled]:not([data-throttled="0"])');
    await page.waitForFunction(() => Number(document.querySelector('#heatmap').dataset.peakRatio) >= 1);
    await waitFor('#top-ru tr[data-key=\'["hot-tenant"]\']');
    await page.waitForTimeout(3000); // a few seconds of the hot partition on the map
    await shot('heatmap-hot');

    await page.click('#tabs button[data-tab="settings"]');
    await page.fill('#settings-throughput', '20000');
    await page.click('#settings-throughput-save');
    await waitFor('#settings-partitions[data-count="2"]');
    await page.click('#tabs button[data-tab="heatmap"]');
    await waitFor('#heatmap[data-splits="1"]');
    await waitFor('#splits li.split[data-parent="0"]');
    await waitFor('#partitions tr[data-live="false"][data-partition="0"]');
    await page.waitForTimeout(3000); // the load goes on, now on the children
    await shot('heatmap-split');
  } finally {
    await stop();
  }
});

test('the change feed shows new writes live', async () => {
  await page.click('#tabs button[data-tab="feed"]');
  await waitFor('#feed-state');
  await page.waitForTimeout(1200);
  await rest.request('POST', [...orders, 'docs'], { body: { id: 'fresh-order', tenant: 'tenant-2', total: 1 },
    headers: { 'x-ms-documentdb-partitionkey': '["tenant-2"]' } });
  await waitFor('#feed-list li[data-id="fresh-order"]');
});

/** Upserts on one logical partition from 4 loops until stopped; 429s are expected and not retried. */
function load() {
  let running = true;
  let n = 0;
  const loops = [0, 1, 2, 3].map(async (w) => {
    while (running) {
      const id = `hot-${w}-${n++ % 50}`;
      try {
        await rest.request('POST', [...orders, 'docs'], { body: { id, tenant: 'hot-tenant', total: n },
          headers: { 'x-ms-documentdb-partitionkey': '["hot-tenant"]', 'x-ms-documentdb-is-upsert': 'true' } });
      } catch (e) {
        if (e.status !== 429) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
  };
}
