import { generateKeyPairSync } from "node:crypto";
import type { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";

/** A merchant of the tests: WeChat Pay's shapes, a key pair of its own, a 32-byte API v3 key. */
export interface TestMerchant {
  mchid: string;
  appid: string;
  apiV3Key: string;
  privateKey: string;
  publicKey: string;
}

export function testMerchant(mchid: string, appid: string, apiV3Key: string): TestMerchant {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    mchid,
    appid,
    apiV3Key,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/**
 * The wxconfig a tenant submits to pay through the double: the merchant's keys, the double's
 * platform key and API base, and the tenant's notify URL on the server at `serverBase`.
 */
export const doubleConfig = (m: TestMerchant, double: WxpayDouble, serverBase: string, tenantId: string) => ({
  appId: m.appid,
  mchId: m.mchid,
  apiV3Key: m.apiV3Key,
  certSerialNo: `SERIAL${m.mchid}`,
  privateKey: m.privateKey,
  notifyUrl: `${serverBase}/api/blade-pms/wxpay/notify/${tenantId}`,
  platformSerialNo: double.platformSerial,
  platformPublicKey: double.platformPublicKey,
  apiBase: double.base,
  maxAmount: "500",
  enabled: 1,
});
