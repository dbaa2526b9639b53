import { yuanToFen } from "@meterline/billing";
import { badRequest } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Queryable } from "../../db/client.ts";
import { MAX_AMOUNT_FEN } from "../money/recharge-input.ts";
import { GATEWAYS, privateKeyOf, publicKeyOf } from "./alipay-protocol.ts";

/** A tenant's Alipay application with its private key opened (never leaves the server). */
export interface AlipayApp {
  tenantId: string;
  appId: string;
  privateKey: string;
  alipayPublicKey: string;
  /** Where gateway.do is: Alipay's sandbox or production, or a configured stand-in (a double). */
  gateway: string;
  notifyUrl: string;
  /** The tenant's limit of one payment, in fen. */
  maxAmountFen: bigint;
}

interface StoredApp {
  app_id: string;
  environment: string;
  private_key: string | null;
  alipay_public_key: string | null;
  gateway_url: string | null;
  notify_url: string | null;
  max_amount: string | null;
}

/** The tenant's enabled Alipay application, the key still encrypted; the oldest when several. */
export async function storedAlipayApp(db: Queryable, tenantId: string): Promise<StoredApp | undefined> {
  const [row] = await db.query<StoredApp>(
    `select app_id, environment, private_key, alipay_public_key, gateway_url, notify_url,
            max_amount::text as max_amount
       from pms_alipay_config where tenant_id = $1 and enabled = 1 and is_deleted = 0
      order by id limit 1`,
    [tenantId],
  );
  return row;
}

/** The gateway an environment names; a gateway URL, when configured, stands in for either. */
export function gatewayOf(environment: string, gatewayUrl: string | null): string {
  if (gatewayUrl) return gatewayUrl;
  return environment === "production" ? GATEWAYS.production : GATEWAYS.sandbox;
}

/** The tenant's enabled Alipay application, keys opened and checked; 400 naming what is missing. */
export async function loadAlipayApp(
  db: Queryable,
  cipher: FieldCipher,
  tenantId: string,
): Promise<AlipayApp> {
  const row = await storedAlipayApp(db, tenantId);
  if (!row) throw badRequest("alipayconfig: 未配置或未启用支付宝");
  const app: AlipayApp = {
    tenantId,
    appId: row.app_id,
    privateKey: row.private_key ? (cipher.decrypt(row.private_key) ?? "") : "",
    alipayPublicKey: row.alipay_public_key ?? "",
    gateway: gatewayOf(row.environment, row.gateway_url),
    notifyUrl: row.notify_url ?? "",
    maxAmountFen: MAX_AMOUNT_FEN,
  };
  if (row.max_amount) {
    const limit = yuanToFen(row.max_amount, "maxAmount");
    if (limit > 0n && limit < MAX_AMOUNT_FEN) app.maxAmountFen = limit;
  }
  const missing = (
    [
      ["privateKey", app.privateKey],
      ["alipayPublicKey", app.alipayPublicKey],
      ["notifyUrl", app.notifyUrl],
    ] as const
  ).find(([, value]) => !value);
  if (missing) throw badRequest(`alipayconfig: 支付宝配置缺少 ${missing[0]}`);
  // A key that does not parse would only fail at the first payment: say so now, naming the field.
  try {
    privateKeyOf(app.privateKey);
  } catch {
    throw badRequest("alipayconfig: privateKey 不是有效的 RSA 私钥");
  }
  try {
    publicKeyOf(app.alipayPublicKey);
  } catch {
    throw badRequest("alipayconfig: alipayPublicKey 不是有效的 RSA 公钥");
  }
  return app;
}
