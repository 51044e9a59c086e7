// The partition heat map: physical partitions (and their EPK ranges) x the last two minutes, each second coloured by
// the RU it consumed against the partition's RU/s budget, 429s marked, splits drawn where they happened; storage and
// item counts per partition, and the busiest and largest logical partitions. Refreshed every second.
import { h, clear, failure, ru, bytes } from './dom.js';

const CELL = 7;
const ROW = 28;
const LABEL = 150;
const AXIS = 18;

/** Empty, then green → yellow → red up to the budget, magenta beyond it (burst or debt). */
export function colour(ratio) {
  if (!(ratio > 0)) return '#1a212c';
  // a window's last admitted request may overdraw a little; well beyond the budget is burst capacity or a debt
  if (ratio > 1.1) return '#ff2fd0';
  if (ratio > 1) ratio = 1;
  return `hsl(${Math.round(120 - 120 * ratio)}, 85%, ${Math.round(28 + 24 * ratio)}%)`;
}

const shortEpk = (e) => (e === '' ? '""' : e.length > 8 ? `${e.slice(0, 8)}…` : e);

export function heatmapView(panel, api, db, coll) {
  const canvas = h('canvas', { id: 'heatmap', role: 'img', 'aria-label': 'RU consumed per partition and second' });
  const legend = h('p', { class: 'legend' }, h('span', { class: 'swatch low' }), 'idle',
    h('span', { class: 'swatch mid' }), 'half the budget', h('span', { class: 'swatch high' }), 'the whole budget',
    h('span', { class: 'swatch over' }), 'beyond it', h('span', { class: 'swatch throttled' }), '429s',
    h('span', { class: 'swatch split' }), 'split');
  const table = h('table', { id: 'partitions' });
  const splits = h('ul', { id: 'splits' });
  const byRu = h('table', { id: 'top-ru' });
  const bySize = h('table', { id: 'top-size' });
  panel.append(legend, h('div', { class: 'canvas-wrap' }, canvas), table,
    h('div', { class: 'split-view' },
      h('section', {}, h('h3', {}, 'Busiest logical partitions (last 1–2 min)'), byRu),
      h('section', {}, h('h3', {}, 'Largest logical partitions'), bySize)),
    h('h3', {}, 'Splits'), splits);
  let busy = false;
  const timer = setInterval(refresh, 1000);
  refresh();

  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      render(await api.partitions(db, coll));
    } catch (e) {
      failure(e);
    } finally {
      busy = false;
    }
  }

  function render(s) {
    const rows = [...s.partitions].sort((a, b) => (a.live === b.live ? a.minInclusive.localeCompare(b.minInclusive)
      || a.id.localeCompare(b.id) : a.live ? -1 : 1));
    const budgets = new Map(rows.filter((p) => p.live).map((p) => [p.id, p.budget]));
    const maxBudget = Math.max(1, ...budgets.values());
    for (const p of rows) {
      if (p.live || p.budget > 0) continue;
      const split = s.splits.find((x) => x.parent === p.id);
      p.budget = split?.children.reduce((t, c) => t + (budgets.get(c) ?? 0), 0) || maxBudget;
    }
    draw(s, rows);
    tabulate(rows);
    clear(splits, s.splits.length === 0 ? h('li', {}, 'No splits yet.') : s.splits.slice().reverse().map((x) =>
      h('li', { class: 'split', 'data-parent': x.parent }, `${new Date(x.at).toLocaleTimeString()}: partition `
        + `${x.parent} [${shortEpk(x.minInclusive)}, ${shortEpk(x.maxExclusive)}) split into `
        + x.children.join(' and '))));
    keys(byRu, s.topByRu, true);
    keys(bySize, s.topBySize, false);
  }

  function draw(s, rows) {
    const width = LABEL + s.seconds * CELL + 4;
    const height = AXIS + rows.length * ROW + 4;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr;
    canvas.height = height * dpr;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const g = canvas.getContext('2d');
    g.scale(dpr, dpr);
    g.fillStyle = '#0f141b';
    g.fillRect(0, 0, width, height);
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = '#8b98a9';
    g.textBaseline = 'middle';
    for (const [label, k] of [[`-${s.seconds}s`, 0], ['-60s', s.seconds - 60], ['now', s.seconds - 1]]) {
      g.fillText(label, LABEL + k * CELL - (k ? 12 : 0), AXIS / 2);
    }
    let peak = { id: null, ratio: 0 };
    rows.forEach((p, i) => {
      const y = AXIS + i * ROW;
      g.fillStyle = p.live ? '#d5dde8' : '#6f7b8b';
      g.fillText(`${p.id}${p.live ? '' : ' (split)'}`, 4, y + 9);
      g.fillStyle = '#6f7b8b';
      g.fillText(`${shortEpk(p.minInclusive)}–${shortEpk(p.maxExclusive)}`, 4, y + 21);
      p.ru.forEach((v, k) => {
        // each second against the budget it had then (a throughput change or split changes it)
        const ratio = v / (p.budgets[k] || p.budget);
        g.fillStyle = colour(ratio);
        g.fillRect(LABEL + k * CELL, y + 2, CELL - 1, ROW - 4);
        if (p.throttled[k] > 0) {
          g.fillStyle = '#ffffff';
          g.fillRect(LABEL + k * CELL + 1, y + 3, CELL - 3, 4);
        }
        if (k >= p.ru.length - 11 && ratio > peak.ratio) peak = { id: p.id, ratio };
      });
    });
    for (const x of s.splits) {
      const k = s.seconds - 1 - Math.floor((s.now - x.at) / 1000);
      if (k < 0) continue;
      g.strokeStyle = '#4fc3ff';
      g.setLineDash([3, 2]);
      g.beginPath();
      g.moveTo(LABEL + k * CELL - 0.5, AXIS - 2);
      g.lineTo(LABEL + k * CELL - 0.5, height);
      g.stroke();
      g.setLineDash([]);
    }
    canvas.dataset.peakPartition = peak.id ?? '';
    canvas.dataset.peakRatio = peak.ratio.toFixed(2);
    canvas.dataset.splits = String(s.splits.length);
  }

  function tabulate(rows) {
    clear(table, h('thead', {}, h('tr', {}, ['Partition', 'EPK range', 'RU/s (last second)', 'Budget RU/s',
      'Peak (10 s)', '429s (2 min)', '429s (total)', 'Storage', 'Items', 'Logical partitions'].map((t) =>
      h('th', {}, t)))),
    h('tbody', {}, rows.map((p) => {
      const last = p.ru[p.ru.length - 2] ?? 0;
      const peak = Math.max(0, ...p.ru.slice(-11).map((v, i) => v / (p.budgets[p.ru.length - 11 + i] || p.budget)));
      const throttled = p.throttled.reduce((a, b) => a + b, 0);
      return h('tr', { 'data-partition': p.id, 'data-live': String(p.live), 'data-peak-ratio': peak.toFixed(2),
        'data-throttled': String(throttled), class: p.live ? '' : 'gone' },
      h('td', {}, p.id + (p.live ? '' : ' (split)')), h('td', { class: 'epk' },
        `[${shortEpk(p.minInclusive)}, ${shortEpk(p.maxExclusive)})`),
      h('td', {}, last.toFixed(1)), h('td', {}, p.live ? String(p.budget) : `${p.budget} (then)`),
      h('td', { class: peak >= 1 ? 'hot' : '' }, `${Math.round(peak * 100)}%`),
      h('td', { class: throttled ? 'hot' : '' }, String(throttled)), h('td', {}, String(p.totalThrottled)),
      h('td', {}, p.live ? bytes(p.storageBytes) : '—'), h('td', {}, p.live ? String(p.items) : '—'),
      h('td', {}, p.live ? String(p.logicalPartitions) : '—'));
    })));
  }

  function keys(el, list, byRuFirst) {
    clear(el, h('thead', {}, h('tr', {}, h('th', {}, 'Partition key'), h('th', {}, 'Partition'),
      h('th', {}, byRuFirst ? 'RU' : 'Size'), h('th', {}, byRuFirst ? 'Size' : ''))),
    h('tbody', {}, list.length === 0 ? h('tr', {}, h('td', { colspan: 4 }, 'Nothing yet.')) : list.map((k) =>
      h('tr', { 'data-key': JSON.stringify(k.partitionKey) }, h('td', { class: 'mono' },
        k.partitionKey === null ? k.epk : JSON.stringify(k.partitionKey)), h('td', {}, k.partition),
      h('td', {}, byRuFirst ? ru(k.ru) : bytes(k.bytes)), h('td', {}, byRuFirst ? bytes(k.bytes) : '')))));
  }

  return () => clearInterval(timer);
}
