import { permissionCodes, resourceBase, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { AliyunSmsProvider } from "./aliyun-sms.ts";
import { readPhones, readTemplateParams } from "./phone.ts";
import { QiniuSmsProvider } from "./qiniu-sms.ts";
import type { SmsProvider } from "./sms-provider.ts";
import { sendMessage } from "./sms-send.ts";
import { TencentSmsProvider } from "./tencent-sms.ts";
import { YunpianSmsProvider } from "./yunpian-sms.ts";

const def = resources.sms;
const base = resourceBase(def);
const codes = permissionCodes(def);
const ENABLE = "sms_enable";
const DEBUG = "sms_debug";

/** Provider per dictionary `sms` key: 1 Yunpian, 2 Qiniu, 3 Aliyun, 4 Tencent Cloud. */
export const defaultProviders = (): Record<number, SmsProvider> => ({
  1: new YunpianSmsProvider(),
  2: new QiniuSmsProvider(),
  3: new AliyunSmsProvider(),
  4: new TencentSmsProvider(),
});

/**
 * The SMS calls beside the plain CRUD of the settings: enable one configuration of the caller's
 * tenant (the others are switched off in the same statement), and send a template message.
 */
export async function smsRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; providers?: Record<number, SmsProvider> },
) {
  const { db, cipher } = opts;
  const providers = opts.providers ?? defaultProviders();
  const tags = [def.name];

  app.post(
    `${base}/enable`,
    { schema: { tags, summary: "Enable one SMS configuration of the tenant" } },
    async (request) => {
      const caller = await requirePermission(db, request, [ENABLE], def.guard);
      const id = optionalId(readParams(request), "id");
      if (!id) throw badRequest("id: 不能为空");
      await db.transaction(async (tx) => {
        const [row] = await tx.query(
          "select 1 from blade_sms where id = $1 and tenant_id = $2 and is_deleted = 0 for update",
          [id, caller.tenantId],
        );
        if (!row) throw notFound("id: 短信配置不存在");
        await tx.query(
          `update blade_sms set status = case when id = $1 then 2 else 1 end, update_user = nullif($3, '')::bigint, update_time = now()
          where tenant_id = $2 and is_deleted = 0 and (status = 2 or id = $1)`,
          [id, caller.tenantId, caller.userId],
        );
      });
      return done();
    },
  );

  app.post(
    `${base}/endpoint/send-message`,
    { schema: { tags, summary: "Send a template message through a SMS configuration" } },
    async (request, reply) => {
      const caller = await requirePermission(db, request, [DEBUG, ENABLE, codes.edit], def.guard);
      const params = readParams(request);
      const phones = readPhones(params.phones);
      const templateParams = readTemplateParams(params.params);
      const code = optionalString(params, "code");
      const sent = await sendMessage(db, cipher, providers, caller, { code, phones, params: templateParams });
      if (sent.result === 1) return ok(sent, "发送成功");
      // The provider failed or did not answer: the record keeps the error, and the caller sees it.
      const msg = `发送失败: ${sent.error ?? ""}`.trim();
      return reply.status(502).send({ code: 502, success: false, data: sent, msg });
    },
  );
}
