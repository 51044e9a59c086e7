// The explorer: sign-in, the tree of databases and containers, and the container's tabs.
import { Api } from './api.js';
import { h, clear, say, failure } from './dom.js';
import { itemsView } from './items.js';
import { queryView } from './query.js';
import { settingsView } from './settings.js';
import { feedView } from './feed.js';
import { heatmapView } from './heatmap.js';

const KEY = 'partita.explorer.key';
const TABS = { items: ['Items', itemsView], query: ['Query', queryView], settings: ['Settings', settingsView],
  feed: ['Change feed', feedView], heatmap: ['Heat map', heatmapView] };
const $ = (id) => document.getElementById(id);
let api = null;
let selected = null; // { db, coll }
let tab = 'items';
let stopView = null; // each view may return a function that stops its timers

async function signIn(key) {
  try {
    api = await Api.signIn(key);
  } catch (e) {
    sessionStorage.removeItem(KEY);
    api = null;
    $('sign-in-error').textContent = e.status === 401 ? 'The key was refused.' : `Could not sign in: ${e.message}`;
    showSignIn();
    return;
  }
  sessionStorage.setItem(KEY, key);
  $('sign-in').hidden = true;
  $('workspace').hidden = false;
  $('sign-out').hidden = false;
  await refreshTree();
}

function showSignIn() {
  $('sign-in').hidden = false;
  $('workspace').hidden = true;
  $('sign-out').hidden = true;
  $('key').focus();
}

async function refreshTree() {
  try {
    const dbs = await api.databases();
    const lists = await Promise.all(dbs.map((d) => api.containers(d.id)));
    clear($('tree'), h('h2', {}, 'Databases'), dbs.length === 0 ? h('p', {}, 'No databases yet.') : null,
      dbs.map((d, i) => h('details', { open: true, 'data-db': d.id },
        h('summary', {}, d.id),
        h('ul', {}, lists[i].map((c) => h('li', {},
          h('button', { type: 'button', class: isSelected(d.id, c.id) ? 'container selected' : 'container',
            'data-container': c.id, onclick: () => select(d.id, c.id) }, c.id)))))));
  } catch (e) {
    failure(e);
  }
}

const isSelected = (db, coll) => selected && selected.db === db && selected.coll === coll;

function select(db, coll) {
  selected = { db, coll };
  for (const b of document.querySelectorAll('#tree button.container')) {
    b.classList.toggle('selected', b.dataset.container === coll && b.closest('details').dataset.db === db);
  }
  $('title').textContent = `${db} / ${coll}`;
  show(tab);
}

function show(name) {
  tab = name;
  stopView?.();
  stopView = null;
  clear($('tabs'), Object.entries(TABS).map(([id, [label]]) => h('button', { type: 'button', role: 'tab',
    'aria-selected': String(id === tab), 'data-tab': id, onclick: () => show(id) }, label)));
  const panel = clear($('panel'));
  say('');
  stopView = TABS[name][1](panel, api, selected.db, selected.coll) ?? null;
}

$('sign-in-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  $('sign-in-error').textContent = '';
  signIn($('key').value);
});
$('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(KEY);
  stopView?.();
  api = null;
  selected = null;
  location.reload();
});
setInterval(() => api && refreshTree(), 10_000);

const saved = sessionStorage.getItem(KEY);
if (saved) signIn(saved); else showSignIn();
