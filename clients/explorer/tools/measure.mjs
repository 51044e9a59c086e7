// Measures the explorer in headless Chromium against a running Partita (loopback only), for BENCHMARKS.md:
//   node tools/measure.mjs weight ENDPOINT DB CONTAINER      page weight, first contentful paint, time to a heat map
//   node tools/measure.mjs watch ENDPOINT DB CONTAINER SECS  keeps the heat map open (polling each second)
// Environment: PARTITA_KEY (default: the emulator's key), CHROMIUM (default /usr/bin/chromium).
import { chromium } from 'playwright-core';

const [mode, endpoint, db, coll, seconds = '60'] = process.argv.slice(2);
const host = new URL(endpoint).hostname;
if (!['localhost', '127.0.0.1', '[::1]'].includes(host)) throw new Error('loopback endpoints only');
const key = process.env.PARTITA_KEY
  ?? 'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'] });
const page = await browser.newPage();
const started = Date.now();
await page.goto(`${endpoint}_explorer/`);
const paint = await page.evaluate(() => new Promise((resolve) => {
  const done = () => resolve(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  if (performance.getEntriesByName('first-contentful-paint').length) done(); else setTimeout(done, 1000);
}));
const weight = await page.evaluate(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  return { files: res.length + 1, bytes: nav.encodedBodySize + res.reduce((t, r) => t + r.encodedBodySize, 0) };
});
await page.fill('#key', key);
await page.click('#sign-in-form button[type=submit]');
await page.click(`#tree details[data-db="${db}"] button[data-container="${coll}"]`);
const t0 = Date.now();
await page.click('#tabs button[data-tab="heatmap"]');
await page.waitForSelector('#heatmap[data-peak-ratio]', { state: 'attached' });
const heatmap = Date.now() - t0;
if (mode === 'weight') {
  console.log(JSON.stringify({ ...weight, firstContentfulPaintMs: paint, heatmapFirstRenderMs: heatmap }));
} else {
  console.log(`heat map of ${db}/${coll} open after ${Date.now() - started} ms; watching for ${seconds} s`);
  await page.waitForTimeout(Number(seconds) * 1000);
}
await browser.close();
