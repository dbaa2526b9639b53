import { badRequest } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import {
  ENDPOINT_HTTPS_ONLY,
  endpointAllowed,
  MSG_RESULT,
  type MsgResult,
  type SmsProvider,
} from "./sms-provider.ts";

/** Who sends: an operator (the test send, a resend) or the server itself for a tenant (no user). */
export interface Sender {
  tenantId: string;
  userId?: string | null | undefined;
}

interface StoredSms {
  id: string;
  category: number;
  template_id: string;
  access_key: string;
  secret_key: string;
  region_id: string | null;
  sign_name: string;
  app_id: string | null;
  endpoint: string | null;
}

export interface SentMessage {
  /** The send record (sms_send_log). */
  id: string;
  smsId: string;
  result: MsgResult;
  retryable: boolean;
  providerCode?: string;
  error?: string;
}

/**
 * The tenant's configuration a send goes through: the one named by its code, else the enabled one.
 * Never another tenant's: the tenant is the caller's, whatever the request names.
 */
async function configurationOf(db: Db, tenantId: string, code: string | undefined): Promise<StoredSms> {
  const [row] = await db.query<StoredSms>(
    `select id::text as id, category, template_id, access_key, secret_key, region_id, sign_name, app_id, endpoint
       from blade_sms
      where tenant_id = $1 and is_deleted = 0 and ${code === undefined ? "status = 2" : "sms_code = $2"}
      order by id limit 1`,
    code === undefined ? [tenantId] : [tenantId, code],
  );
  if (!row) throw badRequest(code === undefined ? "code: 未启用短信配置" : `code: 短信配置 [${code}] 不存在`);
  return row;
}

/**
 * Sends one template message and records it with the provider's answer, whatever the outcome. A
 * provider failure is an outcome, not an exception: the record says whether a retry may help.
 */
export async function sendMessage(
  db: Db,
  cipher: FieldCipher,
  providers: Readonly<Record<number, SmsProvider>>,
  caller: Sender,
  input: {
    code: string | undefined;
    phones: string[];
    params: Record<string, string>;
    /** The queued owner notification this send is an attempt of (pms_message_queue). */
    messageId?: string;
    /** Which attempt of that message this is. */
    attempt?: number;
    /** What the send record keeps of the params when it must not keep them all (a sign-in code). */
    recordParams?: Record<string, string>;
  },
): Promise<SentMessage> {
  const config = await configurationOf(db, caller.tenantId, input.code);
  if (!endpointAllowed(config.endpoint)) throw badRequest(ENDPOINT_HTTPS_ONLY);
  const provider = providers[config.category];
  if (!provider) throw badRequest(`category: 暂不支持该短信服务商 (${config.category})`);
  const secretKey = cipher.decrypt(config.secret_key);
  if (secretKey === undefined) throw badRequest("secretKey: 无法读取已保存的密钥,请重新填写");
  if (config.category === 4 && !config.app_id) throw badRequest("appId: 腾讯云短信需要应用ID(SdkAppId)");
  const outcome = await provider.send(
    {
      accessKey: config.access_key,
      secretKey,
      signName: config.sign_name,
      templateId: config.template_id,
      ...(config.region_id ? { regionId: config.region_id } : {}),
      ...(config.app_id ? { appId: config.app_id } : {}),
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    },
    { phones: input.phones, params: input.params },
  );
  const id = nextId();
  await db.query(
    `insert into sms_send_log (id, tenant_id, sms_id, category, template_id, phones, params, result, retryable,
                               error, provider_code, provider_answer, create_user, message_id, attempts)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, nullif($13, '')::bigint, $14, $15)`,
    [
      id,
      caller.tenantId,
      config.id,
      config.category,
      config.template_id,
      input.phones.join(","),
      JSON.stringify({ ...input.params, ...input.recordParams }),
      outcome.result,
      outcome.retryable ? 1 : 0,
      outcome.error?.slice(0, 500) ?? null,
      outcome.providerCode?.slice(0, 100) ?? null,
      outcome.answer ?? null,
      caller.userId ?? "",
      input.messageId ?? null,
      input.attempt ?? 1,
    ],
  );
  return {
    id,
    smsId: config.id,
    result: outcome.result,
    retryable: outcome.result !== MSG_RESULT.success && outcome.retryable,
    ...(outcome.providerCode ? { providerCode: outcome.providerCode } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}
