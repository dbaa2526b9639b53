import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { FieldCipher, fieldCipherOf } from "../src/crud/field-cipher.ts";
import { reencryptStoredSecrets } from "../src/crud/reencrypt.ts";
import { DbMeterDirectory } from "../src/modules/metering/meter-directory.db.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created, get } from "./registry-fixtures.ts";

/**
 * Stored secrets live under the data-encryption key. A rotation (new key, old one as previous)
 * and the move from the signing-secret key of older versions lose none of them.
 */
describe("the data-encryption key and its rotation", () => {
  let server: TestServer;
  let admin: string;
  const newKey = randomBytes(32).toString("hex");
  const plain = {
    apiKey: "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
    relayPassword: "02123456",
    registrationSecret: "legacy-secret-0123456789",
  };
  let meterId: string;
  let wxId: string;

  const stored = async () => {
    const [wx] = await server.db.query<{ api_key: string }>(
      "select api_key from pms_wx_config where id = $1",
      [wxId],
    );
    const [meter] = await server.db.query<{ relay_password: string }>(
      "select relay_password from pms_meter where id = $1",
      [meterId],
    );
    const [collector] = await server.db.query<{ registration_secret: string }>(
      "select registration_secret from pms_collector where collector_code = 'ROTATE-DTU'",
    );
    return [wx!.api_key, meter!.relay_password, collector!.registration_secret];
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    wxId = await created(server, admin, "wxconfig/submit", {
      appId: "wx1234567890",
      mchId: "1900000109",
      apiKey: plain.apiKey,
    });
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "rotation DTU",
      collectorCode: "ROTATE-DTU",
      registrationSecret: "placeholder-secret-000",
    });
    meterId = await created(server, admin, "meter/save", {
      productCode: "201000000777",
      collectorId: collector,
      relayPassword: plain.relayPassword,
    });
    // A value from before the data key existed: keyed from the signing secret.
    await server.db.query("update pms_collector set registration_secret = $2 where id = $1", [
      collector,
      new FieldCipher(server.jwtSecret).encrypt(plain.registrationSecret),
    ]);
  });
  after(() => server.close());

  test("the data key, not the signing secret, encrypts what operators store", async () => {
    const [apiKey] = await stored();
    assert.equal(new FieldCipher(server.dataKey).decrypt(apiKey!), plain.apiKey);
    assert.equal(new FieldCipher(server.jwtSecret).decrypt(apiKey!), undefined);
  });

  test("a rotation re-encrypts every stored secret under the new key; old values stay readable", async () => {
    const rotated = fieldCipherOf({
      dataKey: newKey,
      previousDataKeys: [server.dataKey],
      jwtSecret: server.jwtSecret,
    });
    // Before the step runs, the new configuration reads both the old key's and the legacy values.
    const directory = new DbMeterDirectory(server.db, rotated, 60_000);
    assert.equal((await directory.credentialsOf("ROTATE-DTU"))?.secret, plain.registrationSecret);

    assert.deepEqual(await reencryptStoredSecrets(server.db, rotated), { reencrypted: 3, unreadable: 0 });
    const onlyNew = new FieldCipher(newKey);
    assert.deepEqual(
      (await stored()).map((value) => onlyNew.decrypt(value)),
      [plain.apiKey, plain.relayPassword, plain.registrationSecret],
    );
    // Nothing is left for the old keys, and a second run has nothing to do.
    for (const old of [server.dataKey, server.jwtSecret])
      assert.deepEqual(
        (await stored()).map((value) => new FieldCipher(old).decrypt(value)),
        [undefined, undefined, undefined],
      );
    assert.deepEqual(await reencryptStoredSecrets(server.db, rotated), { reencrypted: 0, unreadable: 0 });

    // What the gateway is handed comes out whole under the new key alone.
    const fresh = new DbMeterDirectory(server.db, onlyNew, 60_000);
    assert.equal((await fresh.credentialsOf("ROTATE-DTU"))?.secret, plain.registrationSecret);
    const [meter] = await fresh.metersOf("ROTATE-DTU");
    assert.deepEqual(meter?.model.credentials, { passwordLevel: 2, password: "123456" });
    // Masks are unchanged: they never needed a key.
    assert.equal((await get(server, admin, `wxconfig/detail?id=${wxId}`)).apiKey, "****2345");
  });

  test("a value no configured key can read is counted and left as it is", async () => {
    const foreign = new FieldCipher(randomBytes(32).toString("hex")).encrypt("written elsewhere");
    await server.db.query("update pms_meter set relay_password = $2 where id = $1", [meterId, foreign]);
    assert.deepEqual(await reencryptStoredSecrets(server.db, new FieldCipher(newKey)), {
      reencrypted: 0,
      unreadable: 1,
    });
    const [, relay] = await stored();
    assert.equal(relay, foreign);
  });
});
