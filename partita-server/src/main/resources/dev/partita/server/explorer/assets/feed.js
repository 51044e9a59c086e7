// The container's change feed, live: from the moment the tab opens, polled every second.
import { h, failure } from './dom.js';

export function feedView(panel, api, db, coll) {
  const list = h('ol', { id: 'feed-list', class: 'feed', reversed: true });
  const state = h('p', { id: 'feed-state' }, 'Waiting for changes…');
  panel.append(state, list);
  let etag = '*';
  let seen = 0;
  let busy = false;
  const timer = setInterval(poll, 1000);
  poll();

  async function poll() {
    if (busy) return;
    busy = true;
    try {
      const page = await api.changes(db, coll, etag);
      etag = page.etag ?? etag;
      for (const doc of page.changes) {
        seen += 1;
        list.prepend(h('li', { 'data-id': doc.id }, h('strong', {}, doc.id),
          h('small', {}, ` _lsn ${doc._lsn} · ${new Date(doc._ts * 1000).toLocaleTimeString()}`),
          h('pre', { class: 'json' }, JSON.stringify(doc, null, 2))));
      }
      while (list.children.length > 200) list.lastChild.remove();
      state.textContent = `${seen} change${seen === 1 ? '' : 's'} since the tab opened (live).`;
    } catch (e) {
      failure(e);
    } finally {
      busy = false;
    }
  }
  return () => clearInterval(timer);
}
