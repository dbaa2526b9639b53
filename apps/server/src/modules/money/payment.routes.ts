import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalId, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { listTenant, registryTenant } from "../pms/registry-access.ts";
import type { Actor } from "./account-book.ts";
import { MONEY_CODES } from "./money.routes.ts";
import { paymentSheet } from "./money-exports.ts";
import { sendMoneySheet } from "./money-sheet.ts";
import { removePayments, savePayment, submitPayment } from "./payment.service.ts";
import { paymentInputOf } from "./payment-input.ts";
import { paymentDetail, paymentPage } from "./payment-reads.ts";

const pms = "/api/blade-pms";
const tags = ["money"];

/** Button codes of payments (seed 015); taking an order is also the recharge counter's work. */
export const PAYMENT_CODES = {
  write: ["payment_add", ...MONEY_CODES.recharge],
  remove: ["payment_delete"],
  exportRows: ["payment_export"],
};

const actorOf = (user: CurrentUser): Actor => ({ userId: user.userId, name: user.realName || user.account });

/**
 * Payments (spec §7 payment: list, detail, remove, save, submit, and export): money received by
 * method and channel, linked to the recharges it paid for. Rules in payment.service.ts.
 */
export async function paymentRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${pms}/payment/list`,
    {
      schema: {
        tags,
        summary: "Payments with owner, meter and place, and the totals paid, unpaid and failed",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      return ok(await paymentPage(db, listTenant(user, params), params, timeZone));
    },
  );
  app.get(
    `${pms}/payment/detail`,
    { schema: { tags, summary: "One payment with the recharges it paid for" } },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择支付单");
      const found = await paymentDetail(db, registryTenant(user, params), id, timeZone);
      if (!found) throw notFound();
      return ok(found);
    },
  );
  for (const [verb, summary] of [
    ["save", "Take a payment order for an account: unpaid until confirmed"],
    [
      "submit",
      "Create or change a payment; state 1 with a transaction number confirms it and books its recharge once",
    ],
  ] as const) {
    app.post(`${pms}/payment/${verb}`, { schema: { tags, summary } }, async (request) => {
      const user = await requirePermission(db, request, PAYMENT_CODES.write);
      const params = readParams(request);
      const input = paymentInputOf(params);
      const tenantId = registryTenant(user, params);
      const take = verb === "save" ? savePayment : submitPayment;
      const outcome = await take(db, tenantId, input, actorOf(user), timeZone);
      const payment = await paymentDetail(db, tenantId, outcome.id, timeZone);
      return ok(
        { ...payment, booked: outcome.booked },
        outcome.booked ? "支付已确认,已入账" : payment?.state === 1 ? "该支付已入账,未重复入账" : "保存成功",
      );
    });
  }
  app.post(
    `${pms}/payment/remove`,
    { schema: { tags, summary: "Remove unpaid or failed payments (ids); paid ones are refused by id" } },
    async (request) => {
      const user = await requirePermission(db, request, PAYMENT_CODES.remove);
      const params = readParams(request);
      const removed = await removePayments(db, registryTenant(user, params), idList(params, "ids"));
      return ok({ removed }, "删除成功");
    },
  );
  app.get(
    `${pms}/payment/export`,
    { schema: { tags, summary: "Payments of the current search as .xlsx, with the totals" } },
    async (request, reply) => {
      const user = await requirePermission(db, request, PAYMENT_CODES.exportRows);
      const params = readParams(request);
      const sheet = await paymentSheet(db, listTenant(user, params), params, timeZone);
      return sendMoneySheet(db, request, reply, sheet);
    },
  );
}
