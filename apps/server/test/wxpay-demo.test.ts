import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { DEMO_MERCHANT, startDemoWxpay } from "../src/demo/demo-wxpay.ts";
import type { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";
import { createOrder, type WxpayDeps } from "../src/modules/wxpay/wxpay.service.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";

describe("the demo pays through the local WeChat Pay double", () => {
  let server: TestServer;
  let base: string;
  let deps: WxpayDeps;
  const doubles: WxpayDouble[] = [];

  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    deps = {
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      timeZone: "Asia/Shanghai",
      log: () => {},
    };
  });
  after(async () => {
    for (const double of doubles) await double.close();
    await server.close();
  });

  const payOnce = async (double: WxpayDouble) => {
    const [account] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_account where tenant_id = $1 and status = 1 and control_status = 1 order by id limit 1",
      [DEMO_TENANT_ID],
    );
    assert.ok(account, "the demo has a remote-control account");
    const order = await createOrder(deps, {
      tenantId: DEMO_TENANT_ID,
      accountId: account.id,
      amountFen: 1000,
      channel: "native",
      actor: { name: "演示" },
    });
    const deliveries = await double.pay(DEMO_MERCHANT.mchid, order.outTradeNo);
    assert.deepEqual(
      deliveries.map((d) => d.status),
      [204],
    );
    const [row] = await server.db.query<{ state: number; recharge_id: string | null }>(
      "select state, recharge_id::text as recharge_id from pms_wx_pay where out_trade_no = $1",
      [order.outTradeNo],
    );
    assert.equal(row!.state, 1);
    assert.ok(row!.recharge_id);
  };

  test("on first start the demo tenant's wxconfig points at the double, secrets stored encrypted", async () => {
    const double = await startDemoWxpay(server.db, deps.cipher, base);
    doubles.push(double);
    const [config] = await server.db.query<{
      private_key: string;
      api_v3_key: string;
      api_base: string;
      platform_serial_no: string;
    }>(
      "select private_key, api_v3_key, api_base, platform_serial_no from pms_wx_config where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    assert.match(config!.private_key, /^enc:v1:/);
    assert.match(config!.api_v3_key, /^enc:v1:/);
    assert.deepEqual([config!.api_base, config!.platform_serial_no], [double.base, double.platformSerial]);
    await payOnce(double);
  });

  test("a restart keeps the merchant's keys and follows the new double", async () => {
    const [before] = await server.db.query<{ private_key: string }>(
      "select private_key from pms_wx_config where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    const double = await startDemoWxpay(server.db, deps.cipher, base);
    doubles.push(double);
    const rows = await server.db.query<{ private_key: string; platform_serial_no: string }>(
      "select private_key, platform_serial_no from pms_wx_config where tenant_id = $1 and is_deleted = 0",
      [DEMO_TENANT_ID],
    );
    assert.equal(rows.length, 1);
    assert.equal(deps.cipher.decrypt(rows[0]!.private_key), deps.cipher.decrypt(before!.private_key));
    assert.equal(rows[0]!.platform_serial_no, double.platformSerial);
    await payOnce(double);
  });
});
