import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { resources } from "@meterline/contracts";
import type { FieldCipher } from "../crud/field-cipher.ts";
import type { Queryable } from "../db/client.ts";
import { AlipayDouble } from "../modules/alipay/double/alipay-double.ts";
import { registerDemoAlipay } from "../modules/owner-page/owner-alipay-demo.ts";
import { saveDemoConfigRow } from "./demo-config-row.ts";
import { DEMO_TENANT_ID } from "./demo-site.ts";

/** The demo's Alipay application: a made-up app id in Alipay's shape. */
export const DEMO_ALIPAY_APP_ID = "2021000100000001";

/**
 * Starts the local Alipay double for the demo and points the demo tenant's Alipay configuration at
 * it, so an owner can pay with Alipay on first start without any real application. The
 * application's key pair is made on the first start and kept (encrypted); the double's own key is
 * new at every start, so Alipay's public key, the gateway and the notify URL are rewritten.
 */
export async function startDemoAlipay(
  db: Queryable,
  cipher: FieldCipher,
  serverBase: string,
): Promise<AlipayDouble> {
  const double = new AlipayDouble();
  await double.listen(0, "127.0.0.1");
  const [row] = await db.query<{ id: string; private_key: string | null }>(
    `select id::text as id, private_key from pms_alipay_config
      where tenant_id = $1 and app_id = $2 and is_deleted = 0 order by id limit 1`,
    [DEMO_TENANT_ID, DEMO_ALIPAY_APP_ID],
  );
  let privateKey = row?.private_key ? cipher.decrypt(row.private_key) : undefined;
  if (!privateKey) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    privateKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  }
  const def = resources.alipayConfig;
  const body = {
    appId: DEMO_ALIPAY_APP_ID,
    environment: "sandbox",
    privateKey,
    alipayPublicKey: double.alipayPublicKey,
    gatewayUrl: double.gateway,
    notifyUrl: `${serverBase}/api/blade-pms/alipay/notify/${DEMO_TENANT_ID}`,
    maxAmount: "5000",
    enabled: 1,
    remark: "演示:本机支付宝模拟服务",
  };
  await saveDemoConfigRow(db, cipher, def, row?.id, body);
  double.addApp({
    appId: DEMO_ALIPAY_APP_ID,
    publicKey: createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString(),
  });
  // Its wap pages and QR codes go through this server's pass-on (a phone cannot reach 127.0.0.1).
  registerDemoAlipay(double.base);
  return double;
}
