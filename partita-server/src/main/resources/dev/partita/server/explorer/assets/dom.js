// A few DOM helpers: elements built from code (never from HTML strings, so no value is ever parsed as markup).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter(Boolean));
  return el;
}

export function ru(n) {
  return `${Number(n).toFixed(2)} RU`;
}

export function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The status line at the bottom: what the last action did, or why it failed. */
export function say(text, error = false) {
  const s = document.getElementById('status');
  s.textContent = text;
  s.classList.toggle('error', error);
}

export function failure(e) {
  say(e.status ? `${e.status}${e.subStatus ? '/' + e.subStatus : ''}: ${e.message}` : String(e.message ?? e), true);
}
