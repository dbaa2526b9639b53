import { yuanToFen } from "@meterline/billing";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import type { Actor } from "../money/account-book.ts";
import { MONEY_CODES } from "../money/money.routes.ts";
import { approvalGate } from "../money/money-approval.ts";
import { amountOf } from "../money/recharge-input.ts";
import { registryTenant } from "../pms/registry-access.ts";
import {
  type AlipayDeps,
  createAlipayOrder,
  getAlipayOrder,
  handleAlipayNotification,
  queryAlipayOrder,
  refundAlipayOrder,
} from "./alipay.service.ts";
import { CODE_PAY_TIMING, type CodePayTiming, payWithAlipayCode } from "./alipay-codepay.ts";
import { formParams } from "./alipay-protocol.ts";
import { registerAlipayRefundApprovals, sendApprovedAlipayRefunds } from "./alipay-refund-approval.ts";

const pms = "/api/blade-pms";
const tags = ["alipay"];
/** A notification is about a kilobyte of form fields; anything far larger is refused unread. */
export const NOTIFY_BODY_LIMIT = 16 * 1024;

/**
 * Who may do what: Alipay orders are money at the counter, so the counter's recharge buttons
 * govern them (reading, taking a QR payment, refunding) until Alipay has screens of its own.
 */
export const ALIPAY_CODES = {
  read: MONEY_CODES.rechargeRead,
  create: MONEY_CODES.recharge,
  refund: MONEY_CODES.refund,
};

const actorOf = (user: CurrentUser): Actor => ({ userId: user.userId, name: user.realName || user.account });

/**
 * Alipay (issue 39): the counter's QR order and scanned payment code, an order's detail, a query that settles a lost
 * notification, refunds, and the public notification endpoint Alipay posts to. Rules in
 * alipay.service.ts.
 */
export async function alipayRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string; codePayTiming?: CodePayTiming },
) {
  const { db, timeZone } = opts;
  const deps: AlipayDeps = {
    db,
    cipher: opts.cipher,
    timeZone,
    log: (message, fields) => app.log.warn(fields, message),
  };
  const unregister = registerAlipayRefundApprovals(deps);
  // Approved refunds a stop left unsent (they are sent at once after their approval otherwise).
  const sweeper = setInterval(() => {
    sendApprovedAlipayRefunds(deps).catch((error: unknown) =>
      app.log.warn({ err: error }, "alipay approved refunds failed"),
    );
  }, 60_000);
  sweeper.unref();
  app.addHook("onClose", async () => {
    unregister();
    clearInterval(sweeper);
  });

  // The notification is a form whose fields are verified as sent: its own parser, bounded.
  await app.register(async (notify) => {
    notify.removeAllContentTypeParsers();
    notify.addContentTypeParser(
      "*",
      { parseAs: "string", bodyLimit: NOTIFY_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    notify.post<{ Params: { tenantId: string } }>(
      `${pms}/alipay/notify/:tenantId`,
      {
        config: { public: true },
        bodyLimit: NOTIFY_BODY_LIMIT,
        schema: { tags, summary: "Alipay asynchronous notification (form, RSA2-signed); public" },
      },
      async (request, reply) => {
        const tenantId = request.params.tenantId;
        // Alipay reads exactly `success`; anything else makes it send again later.
        reply.type("text/plain; charset=utf-8");
        if (!/^\d{6,12}$/.test(tenantId)) return reply.code(404).send("fail");
        const body = typeof request.body === "string" ? request.body : "";
        const outcome = await handleAlipayNotification(deps, tenantId, formParams(body));
        return outcome.ok ? reply.send("success") : reply.code(400).send("fail");
      },
    );
  });

  app.get(`${pms}/alipay/detail`, { schema: { tags, summary: "One Alipay order" } }, async (request) => {
    const user = await requirePermission(db, request, ALIPAY_CODES.read);
    const params = readParams(request);
    const id = optionalId(params, "id");
    if (!id) throw badRequest("id: 请选择订单");
    const found = await getAlipayOrder(db, registryTenant(user, params), id);
    if (!found) throw notFound("id: 支付宝订单不存在");
    return ok(found);
  });
  app.post(
    `${pms}/alipay/precreate`,
    { schema: { tags, summary: "An Alipay QR order at the counter: meterId or accountId, amount in yuan" } },
    async (request) => {
      const user = await requirePermission(db, request, ALIPAY_CODES.create);
      const params = readParams(request);
      const energy = optionalString(params, "energyType") ?? "1";
      if (energy !== "1" && energy !== "2") throw badRequest("energyType: 只能是 1 或 2");
      const accountId = optionalId(params, "accountId");
      const meterId = optionalId(params, "meterId");
      const order = await createAlipayOrder(deps, {
        tenantId: registryTenant(user, params),
        ...(accountId ? { accountId } : {}),
        ...(meterId ? { meterId } : {}),
        energyType: Number(energy) as 1 | 2,
        amountFen: amountOf(params),
        channel: "qr",
        actor: actorOf(user),
      });
      return ok(order, "已生成支付宝收款二维码");
    },
  );
  app.post(
    `${pms}/alipay/codepay`,
    {
      schema: {
        tags,
        summary:
          "A scanned Alipay payment code at the counter: meterId or accountId, amount in yuan, authCode; answers once paid or closed",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ALIPAY_CODES.create);
      const params = readParams(request);
      const energy = optionalString(params, "energyType") ?? "1";
      if (energy !== "1" && energy !== "2") throw badRequest("energyType: 只能是 1 或 2");
      const accountId = optionalId(params, "accountId");
      const meterId = optionalId(params, "meterId");
      const authCode = optionalString(params, "authCode");
      if (!authCode) throw badRequest("authCode: 请扫描付款码");
      const order = await payWithAlipayCode(
        deps,
        {
          tenantId: registryTenant(user, params),
          ...(accountId ? { accountId } : {}),
          ...(meterId ? { meterId } : {}),
          energyType: Number(energy) as 1 | 2,
          amountFen: amountOf(params),
          authCode,
          actor: actorOf(user),
        },
        opts.codePayTiming ?? CODE_PAY_TIMING,
      );
      return ok(order, order.state === 1 ? "支付宝收款成功" : "支付宝收款未完成,已撤销");
    },
  );
  app.post(
    `${pms}/alipay/query`,
    {
      schema: {
        tags,
        summary: "Ask Alipay about an unpaid order and apply its answer (a lost notification)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ALIPAY_CODES.read);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择订单");
      return ok(await queryAlipayOrder(deps, registryTenant(user, params), id));
    },
  );
  app.post(
    `${pms}/alipay/refund`,
    {
      schema: {
        tags,
        summary:
          "Refund (part of) a paid Alipay order; booked as a ledger refund, held above the approval threshold",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ALIPAY_CODES.refund);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择订单");
      const tenantId = registryTenant(user, params);
      let amountFen: bigint;
      if (optionalString(params, "amount") === undefined) {
        const found = await getAlipayOrder(db, tenantId, id);
        if (!found) throw notFound("id: 支付宝订单不存在");
        amountFen = yuanToFen(found.amount, "amount") - yuanToFen(found.refundAmount, "refundAmount");
      } else amountFen = amountOf(params);
      const result = await refundAlipayOrder(deps, {
        tenantId,
        id,
        amountFen,
        reason: optionalString(params, "reason") ?? "",
        actor: actorOf(user),
        approval: approvalGate(user),
      });
      const message = "processInstanceId" in result ? "已提交审批,审批通过后退款" : "退款已提交";
      return ok({ ...result, order: await getAlipayOrder(db, tenantId, id) }, message);
    },
  );
}
