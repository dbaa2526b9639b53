import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { resources } from "@meterline/contracts";
import type { FieldCipher } from "../crud/field-cipher.ts";
import type { Queryable } from "../db/client.ts";
import { registerDemoDouble } from "../modules/wxpay/demo-cashier.ts";
import { SAMPLE_WECHAT_CODES, WxpayDouble } from "../modules/wxpay/double/wxpay-double.ts";
import { saveDemoConfigRow } from "./demo-config-row.ts";
import { DEMO_TENANT_ID } from "./demo-site.ts";

/** The demo's merchant: made-up numbers in WeChat Pay's shapes. */
export const DEMO_MERCHANT = { mchid: "1900000001", appid: "wxd0000000000demo" } as const;

/**
 * Starts the local WeChat Pay double for the demo and points the demo tenant's wxconfig at it, so a
 * new user can pay on first start without any real merchant. The merchant's key pair and API v3
 * key are made on the first start and kept (encrypted) in wxconfig; the double's platform key is
 * new at every start, so the platform key, its serial, the API base and the notify URL are rewritten.
 */
export async function startDemoWxpay(
  db: Queryable,
  cipher: FieldCipher,
  serverBase: string,
): Promise<WxpayDouble> {
  const double = new WxpayDouble();
  await double.listen(0, "127.0.0.1");
  const [row] = await db.query<{ id: string; private_key: string | null; api_v3_key: string | null }>(
    `select id::text as id, private_key, api_v3_key from pms_wx_config
      where tenant_id = $1 and mch_id = $2 and is_deleted = 0 order by id limit 1`,
    [DEMO_TENANT_ID, DEMO_MERCHANT.mchid],
  );
  let privateKey = row?.private_key ? cipher.decrypt(row.private_key) : undefined;
  let apiV3Key = row?.api_v3_key ? cipher.decrypt(row.api_v3_key) : undefined;
  if (!privateKey) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    privateKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  }
  if (!apiV3Key || Buffer.byteLength(apiV3Key) !== 32) apiV3Key = randomBytes(16).toString("hex");
  const def = resources.wxConfig;
  const body = {
    appId: DEMO_MERCHANT.appid,
    mchId: DEMO_MERCHANT.mchid,
    apiV3Key,
    certSerialNo: "DEMO0000000000000000000000000000000000001",
    privateKey,
    notifyUrl: `${serverBase}/api/blade-pms/wxpay/notify/${DEMO_TENANT_ID}`,
    platformSerialNo: double.platformSerial,
    platformPublicKey: double.platformPublicKey,
    apiBase: double.base,
    maxAmount: "5000",
    enabled: 1,
    remark: "演示:本机微信支付模拟服务",
  };
  await saveDemoConfigRow(db, cipher, def, row?.id, body);
  double.addMerchant({
    ...DEMO_MERCHANT,
    apiV3Key,
    publicKey: createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString(),
  });
  // The counter's sample payment code that waits for the payer (README): confirmed 5 s after the scan.
  double.needsConfirmation(SAMPLE_WECHAT_CODES.confirm, 5_000);
  // Its orders get a link to the double's cashier page (the demo pays in a desktop browser).
  registerDemoDouble(double.base);
  return double;
}
