// Shared by every test file: the client, scenario registration and the known-failures list.
//
// A scenario is a node:test test with a unique name. Names listed in ../known-failures.json are skipped (with the
// recorded reason) unless PARTITA_RUN_KNOWN_FAILURES=true, so `mvn verify` stays green and that file stays the to-do
// list. Every declared name is appended to PARTITA_SCENARIO_LOG, which JsSdkSuiteTest uses to check that each
// known-failures entry still names a real scenario.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { CosmosClient } from "@azure/cosmos";

export const endpoint = process.env.PARTITA_ENDPOINT;
export const key = process.env.PARTITA_KEY;
if (!endpoint || !key) {
  throw new Error("PARTITA_ENDPOINT and PARTITA_KEY must be set (JsSdkSuiteTest sets them; or start `partita serve --http`)");
}
// the network rule of this suite: the SDK talks to loopback only
const host = new URL(endpoint).hostname;
if (!["127.0.0.1", "localhost", "[::1]", "::1"].includes(host)) {
  throw new Error(`PARTITA_ENDPOINT must be a loopback address, got ${endpoint}`);
}

const knownFailures = JSON.parse(readFileSync(new URL("../known-failures.json", import.meta.url), "utf8"));
const runKnown = process.env.PARTITA_RUN_KNOWN_FAILURES === "true";
const declared = new Set();

/** Declares a scenario; skipped when known-failures.json lists its name. */
export function scenario(name, fn, { timeout = 60_000 } = {}) {
  if (declared.has(name)) {
    throw new Error(`duplicate scenario name: ${name}`);
  }
  declared.add(name);
  if (process.env.PARTITA_SCENARIO_LOG) {
    appendFileSync(process.env.PARTITA_SCENARIO_LOG, name + "\n");
  }
  const reason = knownFailures[name];
  const skip = reason !== undefined && !runKnown ? `known failure: ${reason}` : false;
  return test(name, { skip, timeout }, fn);
}

const clients = [];

/** A client with the account key and default options, disposed when the file's tests end. */
export function newClient(options = {}) {
  const c = new CosmosClient({ endpoint, key, ...options });
  clients.push(c);
  return c;
}

/** A client with resource tokens only (no master key). */
export function tokenClient(resourceTokens) {
  const c = new CosmosClient({ endpoint, resourceTokens });
  clients.push(c);
  return c;
}

export function disposeClients() {
  for (const c of clients.splice(0)) {
    c.dispose();
  }
}

export function uid(prefix) {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Awaits a promise that must reject with the given Cosmos status code (and sub-status, when given). */
export async function rejectsWith(promise, code, substatus) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected the service to answer ${code}, but the operation succeeded`);
  const detail = describe(error);
  assert.equal(error.code, code, `expected status ${code}: ${detail}`);
  if (substatus !== undefined) {
    assert.equal(Number(error.substatus), substatus, `expected sub-status ${substatus}: ${detail}`);
  }
  return error;
}

/** What the service answered, in one line: status, sub-status, message. */
export function describe(e) {
  const msg = e?.body?.message ?? e?.message;
  return `code=${e?.code} substatus=${e?.substatus} message=${JSON.stringify(String(msg).slice(0, 400))}`;
}

/** Polls fn until it returns a truthy value or the timeout passes; returns the last value. */
export async function eventually(fn, { timeoutMs = 15_000, everyMs = 250 } = {}) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) {
      return last;
    }
    await sleep(everyMs);
  }
  return last;
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export function sorted(values) {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
