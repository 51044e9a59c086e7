// Users, permissions and resource tokens: a client built with resourceTokens only reaches what its permission covers.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { PermissionMode } from "@azure/cosmos";
import { scenario, newClient, tokenClient, disposeClients, uid, rejectsWith } from "../lib/support.mjs";

after(disposeClients);
const client = newClient();
let db;
let container;
before(async () => {
  ({ database: db } = await client.databases.create({ id: uid("users") }));
  ({ container } = await db.containers.create({ id: "docs", partitionKey: { paths: ["/pk"] } }));
  await container.items.create({ id: "mine", pk: "alice", secret: 1 });
  await container.items.create({ id: "theirs", pk: "bob", secret: 2 });
});

scenario("users: create, read, list and delete a user", async () => {
  const id = uid("u");
  const created = await db.users.create({ id });
  assert.equal(created.statusCode, 201);
  assert.ok(created.resource._rid && created.resource._permissions !== undefined, "system properties");
  assert.equal((await db.user(id).read()).resource.id, id);
  const { resources } = await db.users.readAll().fetchAll();
  assert.ok(resources.some((u) => u.id === id));
  await rejectsWith(db.users.create({ id }), 409);
  assert.equal((await db.user(id).delete()).statusCode, 204);
  await rejectsWith(db.user(id).read(), 404);
});

scenario("users: replace renames a user and keeps its permissions", async () => {
  // the REST reference: "The only replaceable property is the id of the user. This replace operation does not
  // impact the permissions of the user."
  const id = uid("u");
  const { user } = await db.users.create({ id });
  await user.permissions.create({ id: "p", permissionMode: PermissionMode.Read, resource: container.url });
  const renamed = uid("u");
  const replaced = await db.user(id).replace({ id: renamed });
  assert.equal(replaced.statusCode, 200);
  assert.equal(replaced.resource.id, renamed);
  await rejectsWith(db.user(id).read(), 404);
  const { resources } = await db.user(renamed).permissions.readAll().fetchAll();
  assert.deepEqual(resources.map((p) => p.id), ["p"]);
  const { user: other } = await db.users.create({ id: uid("u") });
  await rejectsWith(db.user(renamed).replace({ id: other.id }), 409);
});

scenario("users: replace renames a permission and its token keeps working", async () => {
  const { user } = await db.users.create({ id: uid("u") });
  const { resource: before } = await user.permissions.create({ id: "old", permissionMode: PermissionMode.Read, resource: container.url });
  const replaced = await user.permission("old").replace({ ...before, id: "new" });
  assert.equal(replaced.statusCode, 200);
  assert.equal(replaced.resource.id, "new");
  assert.equal(replaced.resource._rid, before._rid);
  await rejectsWith(user.permission("old").read(), 404);
  const docs = tokenClient({ [container.url]: before._token }).database(db.id).container(container.id);
  assert.equal((await docs.item("mine", "alice").read()).statusCode, 200, "a token minted before the rename");
});

scenario("users: a permission carries a resource token", async () => {
  const { user } = await db.users.create({ id: uid("u") });
  const r = await user.permissions.create({ id: "read-docs", permissionMode: PermissionMode.Read, resource: container.url });
  assert.equal(r.statusCode, 201);
  assert.equal(r.resource.permissionMode.toLowerCase(), "read");
  assert.ok(r.resource._token, "a _token");
  const read = await user.permission("read-docs").read();
  assert.ok(read.resource._token, "a _token on read");
  const { resources } = await user.permissions.readAll().fetchAll();
  assert.deepEqual(resources.map((p) => p.id), ["read-docs"]);
  assert.equal((await user.permission("read-docs").delete()).statusCode, 204);
});

async function tokenFor(mode, resource, resourcePartitionKey) {
  const { user } = await db.users.create({ id: uid("u") });
  const { resource: permission } = await user.permissions.create({ id: "p", permissionMode: mode, resource, resourcePartitionKey });
  return permission._token;
}

scenario("resource tokens: a client with a container read token reads an item", async () => {
  const token = await tokenFor(PermissionMode.Read, container.url);
  const c = tokenClient({ [container.url]: token });
  const r = await c.database(db.id).container(container.id).item("mine", "alice").read();
  assert.equal(r.statusCode, 200);
  assert.equal(r.resource.secret, 1);
});

scenario("resource tokens: a read token cannot write (403)", async () => {
  const token = await tokenFor(PermissionMode.Read, container.url);
  const c = tokenClient({ [container.url]: token });
  await rejectsWith(c.database(db.id).container(container.id).items.create({ id: uid("x"), pk: "alice" }), 403);
});

scenario("resource tokens: a token scoped to a partition key is refused outside it (403)", async () => {
  const token = await tokenFor(PermissionMode.Read, container.url, ["alice"]);
  const docs = tokenClient({ [container.url]: token }).database(db.id).container(container.id);
  assert.equal((await docs.item("mine", "alice").read()).statusCode, 200);
  await rejectsWith(docs.item("theirs", "bob").read(), 403);
});

scenario("resource tokens: an All token on the container can create and query", async () => {
  const token = await tokenFor(PermissionMode.All, container.url);
  const docs = tokenClient({ [container.url]: token }).database(db.id).container(container.id);
  const id = uid("w");
  assert.equal((await docs.items.create({ id, pk: "alice" })).statusCode, 201);
  const { resources } = await docs.items.query("SELECT VALUE c.id FROM c WHERE c.pk = 'alice'", { partitionKey: "alice" }).fetchAll();
  assert.ok(resources.includes(id));
});

scenario("resource tokens: a token for one item reads it and nothing else", async () => {
  const itemUrl = container.item("mine", "alice").url;
  const token = await tokenFor(PermissionMode.Read, itemUrl);
  const docs = tokenClient({ [itemUrl]: token }).database(db.id).container(container.id);
  assert.equal((await docs.item("mine", "alice").read()).statusCode, 200);
  // the SDK holds no token for the other item and sends `authorization: null` (auth.js returns null), which the
  // service refuses as a malformed authorization header: 401, not 403
  await rejectsWith(docs.item("theirs", "bob").read(), 401);
});

scenario("resource tokens: a token for an item's _self link reaches that item and no other", async () => {
  // authorization.spec.ts makes a document's permission from its _self link (rids, not names)
  const { resource: mine } = await container.item("mine", "alice").read();
  const token = await tokenFor(PermissionMode.All, mine._self);
  // keyed by the container's path, the SDK sends this token for every item of the container
  const docs = tokenClient({ [container.url]: token }).database(db.id).container(container.id);
  const read = await docs.item("mine", "alice").read();
  assert.equal(read.statusCode, 200);
  assert.equal(read.resource.secret, 1);
  assert.equal((await docs.item("mine", "alice").replace({ ...read.resource, note: "n" })).statusCode, 200);
  await rejectsWith(docs.item("theirs", "bob").read(), 403);
  await rejectsWith(docs.item("absent", "alice").read(), 403);
  await rejectsWith(docs.items.create({ id: uid("x"), pk: "alice" }), 403);
});

scenario("resource tokens: a token of a deleted permission is refused", async () => {
  const { user } = await db.users.create({ id: uid("u") });
  const { resource } = await user.permissions.create({ id: "p", permissionMode: PermissionMode.Read, resource: container.url });
  const docs = tokenClient({ [container.url]: resource._token }).database(db.id).container(container.id);
  assert.equal((await docs.item("mine", "alice").read()).statusCode, 200, "the token works while its permission exists");
  await user.permission("p").delete();
  const e = await docs.item("mine", "alice").read().then((r) => r, (err) => err);
  assert.ok([401, 403].includes(e.code ?? e.statusCode), `refused: ${e.code ?? e.statusCode}`);
});
