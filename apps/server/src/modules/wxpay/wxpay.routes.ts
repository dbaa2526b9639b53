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
import { sendMoneySheet } from "../money/money-sheet.ts";
import { amountOf } from "../money/recharge-input.ts";
import { listTenant, registryTenant } from "../pms/registry-access.ts";
import { registerRefundApprovals, sendApprovedRefunds } from "./refund-approval.ts";
import { wxbillRoutes } from "./wxbill.routes.ts";
import { reconcileYesterday } from "./wxbill-job.ts";
import {
  createOrder,
  handleNotification,
  refundOrder,
  sweepUnpaid,
  type WxpayDeps,
} from "./wxpay.service.ts";
import { wxpaySheet } from "./wxpay-export.ts";
import { wechatpayHeaders } from "./wxpay-protocol.ts";
import { wxpayDetail, wxpayPage } from "./wxpay-reads.ts";

const pms = "/api/blade-pms";
const tags = ["wxpay"];
/** A payment notification is a few hundred bytes; anything far larger is refused unread. */
export const NOTIFY_BODY_LIMIT = 16 * 1024;

/** Button codes of the wxpay screen (seed 043); the counter's QR code is also the cashier's work. */
export const WXPAY_CODES = {
  read: ["wxpay", ...MONEY_CODES.rechargeRead],
  refund: ["wxpay_refund"],
  exportRows: ["wxpay_export"],
  native: ["wxpay_native", ...MONEY_CODES.recharge],
};

const actorOf = (user: CurrentUser): Actor => ({ userId: user.userId, name: user.realName || user.account });

/**
 * WeChat Pay (spec §7 wxpay): the order list with descs, detail, export, the counter's Native QR
 * order, refunds, and the public notification endpoint WeChat Pay calls. Rules in wxpay.service.ts.
 * The query job runs here every `sweepMs` (every process may run it: the order locks share the work).
 */
export async function wxpayRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string; sweepMs?: number },
) {
  const { db, timeZone } = opts;
  const deps: WxpayDeps = {
    db,
    cipher: opts.cipher,
    timeZone,
    log: (message, fields) => app.log.warn(fields, message),
  };
  const unregister = registerRefundApprovals(deps);
  app.addHook("onClose", async () => unregister());
  if (opts.sweepMs !== 0) {
    const sweeper = setInterval(() => {
      sweepUnpaid(deps).catch((error: unknown) => app.log.warn({ err: error }, "wxpay query job failed"));
      // Approved refunds a stop left unsent (they are sent at once after their approval otherwise).
      sendApprovedRefunds(deps).catch((error: unknown) =>
        app.log.warn({ err: error }, "wxpay approved refunds failed"),
      );
    }, opts.sweepMs ?? 30_000);
    sweeper.unref();
    // The daily bill: the job looks every ten minutes whether yesterday's bills are due (or due again).
    const billJob = setInterval(() => {
      reconcileYesterday(deps).catch((error: unknown) =>
        app.log.warn({ err: error }, "wxpay bill job failed"),
      );
    }, 10 * 60_000);
    billJob.unref();
    app.addHook("onClose", async () => {
      clearInterval(sweeper);
      clearInterval(billJob);
    });
  }
  wxbillRoutes(app, deps);

  // The notification is read as the bytes signed: its own parser, bounded before anything is parsed.
  await app.register(async (notify) => {
    notify.removeAllContentTypeParsers();
    notify.addContentTypeParser(
      "*",
      { parseAs: "string", bodyLimit: NOTIFY_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    notify.post<{ Params: { tenantId: string } }>(
      `${pms}/wxpay/notify/:tenantId`,
      {
        config: { public: true },
        bodyLimit: NOTIFY_BODY_LIMIT,
        schema: { tags, summary: "WeChat Pay payment notification (signed, AEAD-encrypted); public" },
      },
      async (request, reply) => {
        const tenantId = request.params.tenantId;
        if (!/^\d{6,12}$/.test(tenantId))
          return reply.code(404).send({ code: "FAIL", message: "unknown tenant" });
        const body = typeof request.body === "string" ? request.body : "";
        const outcome = await handleNotification(deps, tenantId, wechatpayHeaders(request.headers), body);
        if (outcome.ok) return reply.code(204).send();
        return reply.code(outcome.status).send({ code: "FAIL", message: outcome.reason });
      },
    );
  });

  app.get(
    `${pms}/wxpay/list`,
    { schema: { tags, summary: "WeChat Pay orders (descs), with totals" } },
    async (request) => {
      const user = await requirePermission(db, request, WXPAY_CODES.read);
      const params = readParams(request);
      return ok(await wxpayPage(db, listTenant(user, params), params, timeZone));
    },
  );
  app.get(
    `${pms}/wxpay/detail`,
    { schema: { tags, summary: "One WeChat Pay order with its refunds" } },
    async (request) => {
      const user = await requirePermission(db, request, WXPAY_CODES.read);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择订单");
      const found = await wxpayDetail(db, registryTenant(user, params), id, timeZone);
      if (!found) throw notFound();
      return ok(found);
    },
  );
  app.get(
    `${pms}/wxpay/export`,
    { schema: { tags, summary: "WeChat Pay orders of the search as .xlsx" } },
    async (request, reply) => {
      const user = await requirePermission(db, request, WXPAY_CODES.exportRows);
      const params = readParams(request);
      return sendMoneySheet(
        db,
        request,
        reply,
        await wxpaySheet(db, listTenant(user, params), params, timeZone),
      );
    },
  );
  app.post(
    `${pms}/wxpay/native`,
    {
      schema: {
        tags,
        summary: "A Native (QR code) order at the counter: meterId or accountId, amount in yuan",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, WXPAY_CODES.native);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const energy = optionalString(params, "energyType") ?? "1";
      if (energy !== "1" && energy !== "2") throw badRequest("energyType: 只能是 1 或 2");
      const accountId = optionalId(params, "accountId");
      const meterId = optionalId(params, "meterId");
      const order = await createOrder(deps, {
        tenantId,
        ...(accountId ? { accountId } : {}),
        ...(meterId ? { meterId } : {}),
        energyType: Number(energy) as 1 | 2,
        amountFen: amountOf(params),
        channel: "native",
        actor: actorOf(user),
      });
      const detail = await wxpayDetail(db, tenantId, order.id, timeZone);
      return ok(detail, "已生成收款二维码");
    },
  );
  app.post(
    `${pms}/wxpay/refund`,
    {
      schema: {
        tags,
        summary: "Refund (part of) a paid order through WeChat Pay; booked as a ledger refund",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, WXPAY_CODES.refund);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择订单");
      const tenantId = registryTenant(user, params);
      const amountText = optionalString(params, "amount");
      let amountFen: bigint;
      if (amountText === undefined) {
        const found = await wxpayDetail(db, tenantId, id, timeZone);
        if (!found) throw notFound("id: 微信支付订单不存在");
        amountFen =
          yuanToFen(found.amount ?? "0", "amount") - yuanToFen(found.refundAmount ?? "0", "refundAmount");
      } else amountFen = amountOf(params);
      const result = await refundOrder(deps, {
        tenantId,
        id,
        amountFen,
        reason: optionalString(params, "reason") ?? "",
        actor: actorOf(user),
        approval: approvalGate(user),
      });
      // Held for approval is an answer, not an error: the instance id lets the console follow it.
      const message = "processInstanceId" in result ? "已提交审批,审批通过后退款" : "退款已提交";
      return ok({ ...result, order: await wxpayDetail(db, tenantId, id, timeZone) }, message);
    },
  );
}
