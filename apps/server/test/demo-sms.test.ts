import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { DEMO_SMS_CODE, DEMO_SMS_PREFIX, type DemoSms, startDemoSms } from "../src/demo/demo-sms.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";

const H5 = "/api/blade-pms/h5";

describe("the demo's SMS: a local Aliyun stand-in whose messages are printed in the server log", () => {
  let server: TestServer;
  let cipher: FieldCipher;
  const lines: string[] = [];
  const started: DemoSms[] = [];

  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    cipher = new FieldCipher(server.dataKey);
  });
  after(async () => {
    for (const sms of started) await sms.close();
    await server.close();
  });

  const configs = () =>
    server.db.query<{ sms_code: string; status: number; endpoint: string; secret_key: string }>(
      "select sms_code, status, endpoint, secret_key from blade_sms where tenant_id = $1 and is_deleted = 0 order by id",
      [DEMO_TENANT_ID],
    );

  test("a new user signs in on the owner page with the code the log shows", async () => {
    assert.deepEqual(await configs(), [], "the demo tenant has no SMS configuration of its own");
    const sms = await startDemoSms(server.db, cipher, (line) => lines.push(line));
    started.push(sms);
    const [config] = await configs();
    assert.equal(config?.sms_code, DEMO_SMS_CODE);
    assert.equal(config?.status, 2, "enabled");
    assert.equal(config?.endpoint, sms.url);
    assert.match(config!.secret_key, /^enc:v1:/);
    const phone = "13910000000";
    const sent = await server.inject({
      method: "POST",
      url: `${H5}/code`,
      payload: { tenantId: DEMO_TENANT_ID, phone },
      remoteAddress: "10.9.0.1",
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const line = lines.find((l) => l.startsWith(`${DEMO_SMS_PREFIX} to ${phone}:`));
    assert.ok(line, lines.join("\n"));
    const code = /"code":"(\d{6})"/.exec(line)?.[1];
    assert.ok(code);
    const signedIn = await server.inject({
      method: "POST",
      url: `${H5}/sign-in`,
      payload: { tenantId: DEMO_TENANT_ID, phone, code },
      remoteAddress: "10.9.0.1",
    });
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    const [record] = await server.db.query<{ params: string; result: number }>(
      "select params, result from sms_send_log where tenant_id = $1 order by id desc limit 1",
      [DEMO_TENANT_ID],
    );
    assert.equal(record?.result, 1, "the stand-in answered OK to the signed request");
    assert.doesNotMatch(record.params, new RegExp(code), "the send record keeps the code masked");
  });

  test("a restart rewrites its own configuration, and never takes over one the tenant enabled", async () => {
    await server.db.query("update blade_sms set status = 1 where tenant_id = $1", [DEMO_TENANT_ID]);
    await server.db.query(
      `insert into blade_sms (id, tenant_id, category, sms_code, template_id, access_key, secret_key, sign_name, status,
                              is_deleted)
       values (9000000000000000001, $1, 3, 'own', 'SMS_OWN', 'LTAIown', 'x', '物业', 2, 0)`,
      [DEMO_TENANT_ID],
    );
    const sms = await startDemoSms(server.db, cipher, (line) => lines.push(line));
    started.push(sms);
    const rows = await configs();
    assert.deepEqual(
      rows.map((r) => [r.sms_code, r.status]),
      [
        [DEMO_SMS_CODE, 1],
        ["own", 2],
      ],
    );
    assert.equal(rows[0]?.endpoint, sms.url, "pointed at this start's stand-in");
  });
});
