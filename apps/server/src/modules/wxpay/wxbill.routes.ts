import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { approvalGate } from "../money/money-approval.ts";
import { sendMoneySheet } from "../money/money-sheet.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { BILL_CHANNEL_OF } from "./bill-channels.ts";
import { reconcileChannelDay } from "./wxbill.service.ts";
import { BILL_CHANNELS, type BillChannelName, checkBillDate, chinaDay } from "./wxbill-compare.ts";
import { diffSheet } from "./wxbill-export.ts";
import { billPage, diffPage } from "./wxbill-reads.ts";
import { settleDifference } from "./wxbill-settle.ts";
import type { WxpayDeps } from "./wxpay.service.ts";

const pms = "/api/blade-pms";
const tags = ["wxbill"];

/** Button codes of the reconciliation screen (seed 046). */
export const WXBILL_CODES = {
  read: ["wxbill"],
  reconcile: ["wxbill_reconcile"],
  settle: ["wxbill_settle"],
  exportRows: ["wxbill_export"],
};

/** The channel a day is reconciled for: wechat when not named (as before Alipay), or a 400 naming it. */
function channelParam(params: Record<string, unknown>): BillChannelName {
  const channel = optionalString(params, "channel") ?? "wechat";
  if (!BILL_CHANNELS.includes(channel as BillChannelName))
    throw badRequest("channel: 只能是 wechat 或 alipay");
  return channel as BillChannelName;
}

/**
 * Payment reconciliation (issue 20, Alipay with issue 39): the day's bills of WeChat Pay and Alipay and
 * their differences, reconciling a day of a channel on demand, and settling a difference with a
 * reason. Rules in wxbill.service.ts.
 */
export function wxbillRoutes(app: FastifyInstance, deps: WxpayDeps) {
  const { db, timeZone } = deps;
  app.get(
    `${pms}/wxbill/list`,
    { schema: { tags, summary: "Reconciled days (bills), newest first" } },
    async (request) => {
      const user = await requirePermission(db, request, WXBILL_CODES.read);
      const params = readParams(request);
      return ok(await billPage(db, registryTenant(user, params), params, timeZone));
    },
  );
  app.get(
    `${pms}/wxbill/diff-list`,
    {
      schema: {
        tags,
        summary: "Differences between the bills and Meterline: channel, billDate, billId, kind, state",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, WXBILL_CODES.read);
      const params = readParams(request);
      return ok(await diffPage(db, registryTenant(user, params), params, timeZone));
    },
  );
  app.get(
    `${pms}/wxbill/diff-export`,
    { schema: { tags, summary: "Differences of the search as .xlsx" } },
    async (request, reply) => {
      const user = await requirePermission(db, request, WXBILL_CODES.exportRows);
      const params = readParams(request);
      return sendMoneySheet(
        db,
        request,
        reply,
        await diffSheet(db, registryTenant(user, params), params, timeZone),
      );
    },
  );
  app.post(
    `${pms}/wxbill/reconcile`,
    {
      schema: {
        tags,
        summary:
          "Download and compare the trade bill of a China day (billDate YYYY-MM-DD) of a channel (wechat, the default, or alipay); a failed run answers the day state failed with errorCode and error",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, WXBILL_CODES.reconcile);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const channel = channelParam(params);
      const day = checkBillDate(optionalString(params, "billDate"), chinaDay(new Date()));
      // A run that failed is answered too: the day's bill, state failed, with its reason (errorCode,
      // error), which the console shows; the reason is the channel's or the merchant's, not the caller's.
      const run = await reconcileChannelDay(deps, BILL_CHANNEL_OF[channel], tenantId, day);
      const bills = await billPage(db, tenantId, { billDate: day, channel, size: "10" }, timeZone);
      const bill = bills.records.find((b) => b.id === run.billId);
      return ok(bill ?? null, run.failed ? `对账失败: ${bill?.error ?? ""}` : "对账完成");
    },
  );
  app.post(
    `${pms}/wxbill/settle`,
    { schema: { tags, summary: "Settle a difference: action book|reverse|correct|acknowledge, reason" } },
    async (request) => {
      const user = await requirePermission(db, request, WXBILL_CODES.settle);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择差异");
      const result = await settleDifference(deps, {
        tenantId: registryTenant(user, params),
        id,
        action: optionalString(params, "action") ?? "",
        reason: optionalString(params, "reason") ?? "",
        actor: { userId: user.userId, name: user.realName || user.account },
        approval: approvalGate(user),
      });
      return ok(result, result.held ? "已提交审批" : "已处理");
    },
  );
}
