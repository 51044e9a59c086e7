// Items, browsed by partition key: a page of ids, and the chosen item's JSON to replace or delete (etag-checked),
// or a new item to create.
import { partitionKeyHeader, partitionKeyOf } from './api.js';
import { h, clear, say, failure, ru } from './dom.js';

export function itemsView(panel, api, db, coll) {
  const pk = h('input', { id: 'items-pk', placeholder: 'partition key, e.g. "tenant-1" (empty: every partition)',
    size: 40 });
  const list = h('ul', { id: 'items-list', class: 'items' });
  const more = h('button', { type: 'button', id: 'items-more', hidden: true }, 'More');
  const editor = h('textarea', { id: 'item-json', spellcheck: 'false', rows: 18,
    placeholder: 'Choose an item, or write a new one and press Create.' });
  const save = h('button', { type: 'button', id: 'item-save', disabled: true }, 'Save');
  const remove = h('button', { type: 'button', id: 'item-delete', disabled: true }, 'Delete');
  const create = h('button', { type: 'button', id: 'item-create' }, 'Create');
  let definition = null;
  let current = null; // the item as loaded: its etag guards Save and Delete
  let continuation = null;

  async function load(append) {
    try {
      definition ??= (await api.container(db, coll)).partitionKey;
      const key = pk.value.trim() ? partitionKeyHeader(pk.value.trim()) : undefined;
      const page = await api.queryPage(db, coll, 'SELECT * FROM c', { partitionKey: key, continuation: append
        ? continuation : undefined, maxItemCount: 50 });
      continuation = page.continuation;
      more.hidden = !continuation;
      if (!append) clear(list);
      list.append(...page.rows.map((doc) => h('li', {}, h('button', { type: 'button', class: 'item',
        'data-id': doc.id, onclick: () => open(doc) }, doc.id, h('small', {}, partitionKeyOf(doc, definition))))));
      say(`${page.rows.length} items, ${ru(page.charge)}`);
    } catch (e) {
      failure(e);
    }
  }

  function open(doc) {
    current = doc;
    editor.value = JSON.stringify(doc, null, 2);
    save.disabled = false;
    remove.disabled = false;
  }

  function parsed() {
    const doc = JSON.parse(editor.value);
    return { doc, key: partitionKeyOf(doc, definition) };
  }

  save.addEventListener('click', async () => {
    try {
      const { doc, key } = parsed();
      if (doc.id !== current.id || key !== partitionKeyOf(current, definition)) {
        say('Save replaces the item you opened: keep its id and partition key (Create makes a new one).', true);
        return;
      }
      const r = await api.replaceItem(db, coll, doc, key, current._etag);
      open(r.body);
      say(`Saved ${doc.id}, ${ru(r.charge)}`);
    } catch (e) {
      if (e.status === 412) say('The item changed since you opened it: open it again to see the new version.', true);
      else failure(e);
    }
  });
  remove.addEventListener('click', async () => {
    try {
      const key = partitionKeyOf(current, definition);
      const r = await api.deleteItem(db, coll, current.id, key, current._etag);
      say(`Deleted ${current.id}, ${ru(r.charge)}`);
      current = null;
      editor.value = '';
      save.disabled = remove.disabled = true;
      load(false);
    } catch (e) {
      failure(e);
    }
  });
  create.addEventListener('click', async () => {
    try {
      definition ??= (await api.container(db, coll)).partitionKey;
      const { doc, key } = parsed();
      const r = await api.createItem(db, coll, doc, key);
      open(r.body);
      say(`Created ${doc.id}, ${ru(r.charge)}`);
      load(false);
    } catch (e) {
      failure(e);
    }
  });
  more.addEventListener('click', () => load(true));

  panel.append(h('div', { class: 'split-view' },
    h('div', {}, h('form', { class: 'row', onsubmit: (ev) => { ev.preventDefault(); load(false); } }, pk,
      h('button', { type: 'submit', id: 'items-load' }, 'Load')), list, more),
    h('div', {}, editor, h('div', { class: 'row' }, save, remove, create))));
  load(false);
}
