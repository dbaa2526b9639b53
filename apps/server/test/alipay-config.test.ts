import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { loadAlipayApp } from "../src/modules/alipay/alipay-app.ts";
import { GATEWAYS } from "../src/modules/alipay/alipay-protocol.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const bare = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"),
    publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
  };
};

/** A tenant's Alipay application: the private key stored encrypted, answered masked, opened for calls. */
describe("Alipay settings", () => {
  let server: TestServer;
  let admin: string;
  let other: { tenantId: string; token: string };
  let id: string;
  const application = bare();
  const alipay = bare();

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    other = await provisionTenant(server, admin, "另一物业");
    id = await created(server, other.token, "alipayconfig/submit", {
      appId: "2021000117650001",
      environment: "sandbox",
      privateKey: application.privateKey,
      alipayPublicKey: alipay.publicKey,
      notifyUrl: "https://meter.example/api/blade-pms/alipay/notify",
      maxAmount: "2000.00",
    });
  });
  after(() => server.close());

  test("the private key is stored encrypted and answered masked", async () => {
    const [row] = await server.db.query<{ private_key: string }>(
      "select private_key from pms_alipay_config where id = $1",
      [id],
    );
    assert.notEqual(row!.private_key, application.privateKey);
    assert.equal(new FieldCipher(server.dataKey).decrypt(row!.private_key), application.privateKey);
    const detail = (await server.call("GET", `${pms}/alipayconfig/detail?id=${id}`, other.token)).json().data;
    assert.equal(detail.privateKey, `****${application.privateKey.slice(-4)}`);
    assert.equal(detail.alipayPublicKey, alipay.publicKey);
    const list = (await server.call("GET", `${pms}/alipayconfig/list`, other.token)).json().data;
    assert.ok(JSON.stringify(list).includes("2021000117650001"));
    assert.ok(!JSON.stringify(list).includes(application.privateKey.slice(0, 40)));
  });

  test("the server opens the key for calls; the environment picks the gateway", async () => {
    const app = await loadAlipayApp(server.db, new FieldCipher(server.dataKey), other.tenantId);
    assert.equal(app.appId, "2021000117650001");
    assert.equal(app.privateKey, application.privateKey);
    assert.equal(app.gateway, GATEWAYS.sandbox);
    assert.equal(app.maxAmountFen, 200000n);
    const res = await server.call("POST", `${pms}/alipayconfig/submit`, other.token, {
      id,
      appId: "2021000117650001",
      environment: "production",
    });
    assert.equal(res.statusCode, 200, res.body);
    const production = await loadAlipayApp(server.db, new FieldCipher(server.dataKey), other.tenantId);
    assert.equal(production.gateway, GATEWAYS.production);
    assert.equal(production.privateKey, application.privateKey, "an update without the key keeps it");
  });

  test("another tenant neither sees, changes nor uses it", async () => {
    const third = await provisionTenant(server, admin, "第三物业");
    const res = await server.call("GET", `${pms}/alipayconfig/detail?id=${id}`, third.token);
    assert.ok(res.statusCode !== 200 || !res.json().data?.appId, res.body);
    const list = (await server.call("GET", `${pms}/alipayconfig/list`, third.token)).json().data;
    assert.ok(!JSON.stringify(list).includes("2021000117650001"));
    await server.call("POST", `${pms}/alipayconfig/submit`, third.token, {
      id,
      appId: "2021000117659999",
      environment: "sandbox",
    });
    assert.equal(
      (await loadAlipayApp(server.db, new FieldCipher(server.dataKey), other.tenantId)).appId,
      "2021000117650001",
    );
    await assert.rejects(
      loadAlipayApp(server.db, new FieldCipher(server.dataKey), third.tenantId),
      /alipayconfig/,
    );
  });

  test("bad input is a 400 naming the field", async () => {
    for (const [body, field] of [
      [{ appId: "wx123", environment: "sandbox" }, "appId"],
      [{ appId: "2021000117650002", environment: "moon" }, "environment"],
      [{ appId: "2021000117650003", environment: "sandbox", gatewayUrl: "ftp://x" }, "gatewayUrl"],
    ] as const) {
      const res = await server.call("POST", `${pms}/alipayconfig/submit`, other.token, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, new RegExp(field));
    }
  });

  test("a key that is not a key is named before any payment", async () => {
    const [row] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_alipay_config where id = $1",
      [id],
    );
    await server.db.query("update pms_alipay_config set alipay_public_key = 'not-a-key' where id = $1", [
      row!.id,
    ]);
    await assert.rejects(
      loadAlipayApp(server.db, new FieldCipher(server.dataKey), other.tenantId),
      /alipayPublicKey/,
    );
  });
});
