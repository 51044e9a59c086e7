import { after } from "node:test";
import assert from "node:assert/strict";
import { scenario, newClient, disposeClients, uid } from "../lib/support.mjs";

after(disposeClients);

scenario("smoke: account read", async () => {
  const client = newClient();
  const { resource } = await client.getDatabaseAccount();
  assert.ok(resource.writableLocations.length > 0);
});
