// Client-side encryption (Always Encrypted): the SDK wraps data keys with the client's key encryption key, stores
// them as the database's client encryption keys, and encrypts the paths of the container's clientEncryptionPolicy
// before they leave the process. The server keeps ciphertext it cannot read and must hand the keys back as stored.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import {
  EncryptionAlgorithm,
  EncryptionKeyResolverName,
  EncryptionQueryBuilder,
  EncryptionType,
  KeyEncryptionAlgorithm,
} from "@azure/cosmos";
import { scenario, newClient, disposeClients, uid, rejectsWith } from "../lib/support.mjs";

/** A key "vault" that wraps by adding one to every byte: enough for the SDK, and nothing leaves the machine. */
class ShiftingKeyResolver {
  encryptionKeyResolverName = EncryptionKeyResolverName.AzureKeyVault;
  async wrapKey(_keyId, _algorithm, key) {
    return Buffer.from(key.map((b) => (b + 1) & 0xff));
  }
  async unwrapKey(_keyId, _algorithm, wrapped) {
    return Buffer.from(wrapped.map((b) => (b + 255) & 0xff));
  }
}

after(disposeClients);
const plain = newClient();
const encrypting = newClient({ clientEncryptionOptions: { keyEncryptionKeyResolver: new ShiftingKeyResolver() } });
const metadata = (name) => ({
  type: EncryptionKeyResolverName.AzureKeyVault,
  name,
  value: `https://vault.example/keys/${name}`,
  algorithm: KeyEncryptionAlgorithm.RSA_OAEP,
});
const encrypted = (path) => ({
  path,
  clientEncryptionKeyId: "cek1",
  encryptionType: EncryptionType.DETERMINISTIC,
  encryptionAlgorithm: EncryptionAlgorithm.AEAD_AES_256_CBC_HMAC_SHA256,
});
let dbId;
let container;
before(async () => {
  dbId = uid("encryption");
  const { database } = await encrypting.databases.create({ id: dbId });
  const created = await database.createClientEncryptionKey("cek1", EncryptionAlgorithm.AEAD_AES_256_CBC_HMAC_SHA256,
    metadata("kek1"));
  assert.equal(created.statusCode, 201);
  ({ container } = await database.containers.create({
    id: "patients",
    partitionKey: { paths: ["/pk"] },
    clientEncryptionPolicy: { includedPaths: ["/pk", "/ssn"].map(encrypted), policyFormatVersion: 2 },
  }));
  await container.initializeEncryption();
});

scenario("encryption: items round-trip through the server as ciphertext", async () => {
  const doc = { id: uid("p"), pk: "ward-1", ssn: "123-45-6789", age: 42 };
  assert.equal((await container.items.create(doc)).statusCode, 201);
  const read = await container.item(doc.id, doc.pk).read();
  assert.equal(read.resource.ssn, doc.ssn, "the encrypting client reads the plain value");

  const { resources } = await plain.database(dbId).container("patients").items
    .query({ query: "SELECT * FROM c WHERE c.id = @id", parameters: [{ name: "@id", value: doc.id }] }).fetchAll();
  assert.equal(resources.length, 1);
  assert.notEqual(resources[0].ssn, doc.ssn, "the server holds ciphertext");
  assert.notEqual(resources[0].pk, doc.pk, "the partition key is encrypted too");
  assert.equal(resources[0].age, 42, "paths outside the policy stay plain");
});

scenario("encryption: an equality query on an encrypted path matches its ciphertext", async () => {
  const doc = { id: uid("p"), pk: "ward-2", ssn: "987-65-4321", age: 7 };
  await container.items.create(doc);
  const query = new EncryptionQueryBuilder("SELECT * FROM c WHERE c.ssn = @ssn");
  query.addParameter("@ssn", doc.ssn, "/ssn");
  const iterator = await container.items.getEncryptionQueryIterator(query);
  const { resources } = await iterator.fetchAll();
  assert.deepEqual(resources.map((r) => [r.id, r.ssn]), [[doc.id, doc.ssn]]);
});

scenario("encryption: a key is rewrapped with its etag, and a second key with a taken id is 409", async () => {
  const database = encrypting.database(dbId);
  const before = await database.readClientEncryptionKey("cek1");
  const rewrapped = await database.rewrapClientEncryptionKey("cek1", metadata("kek2"));
  assert.equal(rewrapped.statusCode, 200);
  assert.equal(rewrapped.clientEncryptionKeyProperties.encryptionKeyWrapMetadata.name, "kek2");
  assert.notEqual(rewrapped.clientEncryptionKeyProperties.etag, before.clientEncryptionKeyProperties.etag);
  await rejectsWith(database.createClientEncryptionKey("cek1", EncryptionAlgorithm.AEAD_AES_256_CBC_HMAC_SHA256,
    metadata("kek1")), 409);
  // what was written under the old wrapping still decrypts: the data key itself did not change
  const doc = { id: uid("p"), pk: "ward-3", ssn: "111-22-3333" };
  await container.items.create(doc);
  const fresh = newClient({ clientEncryptionOptions: { keyEncryptionKeyResolver: new ShiftingKeyResolver() } });
  const { resource } = await fresh.database(dbId).container("patients").item(doc.id, doc.pk).read();
  assert.equal(resource.ssn, doc.ssn);
});

scenario("encryption: a client whose container was re-created under the same name gets 400/1024 and recovers", async () => {
  const database = encrypting.database(dbId);
  const id = uid("recreated");
  const { container: first } = await database.containers.create({
    id,
    partitionKey: { paths: ["/pk"] },
    clientEncryptionPolicy: { includedPaths: [encrypted("/ssn")], policyFormatVersion: 2 },
  });
  await first.initializeEncryption();
  await first.items.create({ id: "a", pk: "x", ssn: "1" });
  await plain.database(dbId).container(id).delete();
  await plain.database(dbId).containers.create({
    id,
    partitionKey: { paths: ["/pk"] },
    clientEncryptionPolicy: { includedPaths: [encrypted("/name")], policyFormatVersion: 2 },
  });
  // the SDK sends the rid it cached; the service refuses it, and the SDK refreshes its policy before the next try
  await assert.rejects(first.items.create({ id: "b", pk: "x", ssn: "2", name: "n" }));
  await first.items.create({ id: "c", pk: "x", ssn: "3", name: "n" });
  const { resources } = await plain.database(dbId).container(id).items.readAll().fetchAll();
  assert.deepEqual(resources.map((r) => r.id), ["c"]);
  assert.equal(resources[0].ssn, "3", "the new policy does not encrypt /ssn");
  assert.notEqual(resources[0].name, "n", "it encrypts /name");
});

scenario("encryption: a hash V1 container takes an encrypted partition key longer than it hashes", async () => {
  // an encrypted key is ~130 bytes of base64; V1 hashes its first 101 bytes and the service takes the rest
  const { container: v1 } = await encrypting.database(dbId).containers.create({
    id: uid("v1"),
    partitionKey: { paths: ["/pk"], version: 1 },
    clientEncryptionPolicy: { includedPaths: [encrypted("/pk")], policyFormatVersion: 2 },
  });
  await v1.initializeEncryption();
  const doc = { id: "a", pk: "a-partition-key-of-some-length" };
  assert.equal((await v1.items.create(doc)).statusCode, 201);
  assert.equal((await v1.item("a", doc.pk).read()).resource.pk, doc.pk);
});
