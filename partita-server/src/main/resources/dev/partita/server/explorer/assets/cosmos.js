// The REST API of Partita (and of Cosmos DB), signed in the browser with the account key: protocol.md §2.1,
// Base64(HMAC-SHA256(key, verb\ntype\nlink\nx-ms-date\n\n)) with WebCrypto. The key never leaves this tab.

const VERSION = '2018-12-31';

/** The SDK's test for a name-based link (PathsHelper.isNameBased): such links are signed as they are. */
function looksNameBased(link) {
  return link.length > 4 && link.charAt(3) === '/';
}

/** The resource type and link the signature covers, from the path's segments. */
export function signingScope(segments) {
  const n = segments.length;
  if (n === 0) return { type: '', link: '' };
  const even = n % 2 === 0;
  const type = even ? segments[n - 2] : segments[n - 1];
  // offers sign their rid alone; everything else the explorer reaches by name signs its path
  const link = segments[0] === 'offers' ? (segments[1] ?? '') : (even ? segments : segments.slice(0, n - 1)).join('/');
  return { type, link: looksNameBased(link) ? link : link.toLowerCase() };
}

export class CosmosError extends Error {
  constructor(status, subStatus, message, charge) {
    super(message);
    this.status = status;
    this.subStatus = subStatus;
    this.charge = charge;
  }
}

export class Cosmos {
  /**
   * @param key  the account key, base64
   * @param base where Partita is (empty in the page: its own origin; tools running outside a page give the endpoint)
   */
  static async signIn(key, base = '') {
    const raw = Uint8Array.from(atob(key.trim()), (c) => c.charCodeAt(0));
    const hmac = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Cosmos(hmac, base.replace(/\/$/, ''));
  }

  constructor(hmac, base) {
    this.hmac = hmac;
    this.base = base;
  }

  async authorization(verb, segments, date) {
    const { type, link } = signingScope(segments);
    const text = `${verb.toLowerCase()}\n${type}\n${link}\n${date.toLowerCase()}\n\n`;
    const sig = await crypto.subtle.sign('HMAC', this.hmac, new TextEncoder().encode(text));
    const b64 = btoa(String.fromCharCode(...new Uint8Array(sig)));
    return encodeURIComponent(`type=master&ver=1.0&sig=${b64}`);
  }

  /**
   * One request. `segments` are the decoded path segments (ids as they are); `sign` names other segments to sign
   * (the explorer's own API signs like a read of its container). Answers {status, headers, body, charge}; throws a
   * CosmosError for 4xx/5xx other than those in `accept`.
   */
  async request(method, segments, { body, headers = {}, sign, prefix = '/', accept = [] } = {}) {
    const date = new Date().toUTCString();
    const h = {
      'x-ms-date': date,
      'x-ms-version': VERSION,
      authorization: await this.authorization(method, sign ?? segments, date),
      ...headers,
    };
    if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
    const url = this.base + prefix + segments.map(encodeURIComponent).join('/');
    const res = await fetch(url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    const charge = Number(res.headers.get('x-ms-request-charge') ?? 0);
    if (res.status >= 400 && !accept.includes(res.status)) {
      // the service's messages end with a line naming the activity id, which the explorer shows apart
      const message = (parsed?.message ?? `HTTP ${res.status}`).split('\r\nActivityId: ')[0];
      throw new CosmosError(res.status, Number(res.headers.get('x-ms-substatus') ?? 0), message, charge);
    }
    return { status: res.status, headers: res.headers, body: parsed, charge };
  }
}
