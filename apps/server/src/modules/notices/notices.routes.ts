import { permissionCodes, resourceBase, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { phoneProblem, readPhones, readTemplateParams } from "../sms/phone.ts";
import type { SmsProvider } from "../sms/sms-provider.ts";
import { sendMessage } from "../sms/sms-send.ts";
import type { NoticeQueue } from "./notice-queue.ts";
import {
  queueManualMessage,
  removeMessages,
  removeSmsRecords,
  requeueMessage,
  setSmsRemark,
} from "./notices.repository.ts";
import { MESSAGE_STATE } from "./owner-notice.repository.ts";

const queueDef = resources.messageQueue;
const smsDef = resources.smsRecord;

/**
 * The writes of the two notification lists (their reads are the plain list, page and detail):
 * messagequeue submit queues a message or queues one again, remove takes messages out of the
 * queue; sms submit sends a message and records it, or keeps a remark on a record, remove hides
 * records. Every write names rows of the caller's tenant only (the platform administrator's of
 * the tenant it names).
 */
export async function noticeRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    cipher: FieldCipher;
    providers: Readonly<Record<number, SmsProvider>>;
    queue?: () => NoticeQueue | undefined;
  },
) {
  const { db } = opts;
  const queueCodes = permissionCodes(queueDef);
  const smsCodes = permissionCodes(smsDef);
  const queueBase = resourceBase(queueDef);
  const smsBase = resourceBase(smsDef);
  const wake = () =>
    void opts
      .queue?.()
      ?.dispatch()
      .catch(() => undefined);

  app.post(
    `${queueBase}/submit`,
    { schema: { tags: [queueDef.name], summary: "Queue an SMS, or queue a message again (id)" } },
    async (request) => {
      const caller = await requirePermission(db, request, [queueCodes.add, queueCodes.edit]);
      const params = readParams(request);
      const tenantId = registryTenant(caller, params);
      const id = optionalId(params, "id");
      const phone = optionalString(params, "phone")?.trim();
      if (phone !== undefined) {
        const problem = phoneProblem(phone);
        if (problem) throw badRequest(`phone: ${problem}`);
      }
      const templateParams =
        params.templateParams === undefined || params.templateParams === ""
          ? undefined
          : readTemplateParams(params.templateParams);
      if (id) {
        const outcome = await requeueMessage(db, tenantId, id, { phone, templateParams });
        if (outcome === "missing") throw notFound("id: 消息不存在");
        if (outcome === "sent") throw badRequest("state: 该消息已发送成功,无需重新发送");
        wake();
        return done("已重新加入发送队列");
      }
      const ownerId = optionalId(params, "ownerId");
      const queued = await queueManualMessage(db, tenantId, {
        ownerId,
        phone,
        templateParams: templateParams ?? {},
        userId: caller.userId,
      });
      if (queued === "no-owner") throw badRequest("ownerId: 业主不存在");
      if (queued === "no-phone") throw badRequest("phone: 手机号码不能为空");
      wake();
      return ok({ id: queued, state: MESSAGE_STATE.queued }, "已加入发送队列");
    },
  );

  app.post(
    `${queueBase}/remove`,
    { schema: { tags: [queueDef.name], summary: "Take messages out of the queue (ids)" } },
    async (request) => {
      const caller = await requirePermission(db, request, [queueCodes.remove]);
      const params = readParams(request);
      const removed = await removeMessages(db, registryTenant(caller, params), idList(params, "ids"));
      if (removed === 0) throw notFound("ids: 消息不存在");
      return done("删除成功");
    },
  );

  app.post(
    `${smsBase}/submit`,
    {
      schema: { tags: [smsDef.name], summary: "Send a SMS and record it, or keep a remark on a record (id)" },
    },
    async (request, reply) => {
      const caller = await requirePermission(db, request, [smsCodes.add, smsCodes.edit]);
      const params = readParams(request);
      const tenantId = registryTenant(caller, params);
      const id = optionalId(params, "id");
      if (id) {
        const remark = optionalString(params, "remark") ?? "";
        if (remark.length > 255) throw badRequest("remark: 长度不能超过255");
        if (!(await setSmsRemark(db, tenantId, id, remark))) throw notFound("id: 短信记录不存在");
        return done("保存成功");
      }
      const phones = readPhones(params.phones);
      const sent = await sendMessage(
        db,
        opts.cipher,
        opts.providers,
        { tenantId, userId: caller.userId },
        { code: optionalString(params, "code"), phones, params: readTemplateParams(params.params) },
      );
      if (sent.result === 1) return ok(sent, "发送成功");
      return reply
        .status(502)
        .send({ code: 502, success: false, data: sent, msg: `发送失败: ${sent.error ?? ""}`.trim() });
    },
  );

  app.post(
    `${smsBase}/remove`,
    { schema: { tags: [smsDef.name], summary: "Hide SMS records (ids)" } },
    async (request) => {
      const caller = await requirePermission(db, request, [smsCodes.remove]);
      const params = readParams(request);
      const removed = await removeSmsRecords(db, registryTenant(caller, params), idList(params, "ids"));
      if (removed === 0) throw notFound("ids: 短信记录不存在");
      return done("删除成功");
    },
  );
}
