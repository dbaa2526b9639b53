import { BATCH_JOB_MAX_METERS, moneyScreens, readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, readParams } from "../../contract/params.ts";
import { NOT_FOUND_MESSAGE } from "../../crud/context.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { registerRefusal } from "../../crud/refused-writes.ts";
import type { Db } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import { dayParam } from "../metering/usage-periods.ts";
import { listTenant, registryTenant } from "../pms/registry-access.ts";
import type { Actor } from "./account-book.ts";
import { closeAccounts } from "./account-closing.ts";
import { accountDeskRoutes } from "./account-desk.routes.ts";
import { closingSupplyOf, depositMethodOf } from "./account-desk-input.ts";
import { startAccountJob } from "./account-jobs.ts";
import { openAccounts } from "./account-opening.ts";
import { runHeldCuts } from "./arrears.ts";
import { closingHold, registerClosingApprovals } from "./closing-approval.ts";
import { settleClosingSupply } from "./closing-supply.ts";
import { closeDay, closeYesterdayIfDue } from "./daily-close.ts";
import { checkLedger } from "./ledger-check.ts";
import { meterRechargeRoutes } from "./meter-recharge.routes.ts";
import { approvalGate, registerMoneyApprovals } from "./money-approval.ts";
import { moneyRatio, ownerRechargePath, ownerUsagePath, periodDays } from "./money-overview.ts";
import { moneyPolicyRoutes } from "./money-policy.routes.ts";
import {
  accountOperationDetail,
  accountOperationsPage,
  ownerAccountsPage,
  rechargeDetail,
  rechargePage,
} from "./money-reads.ts";
import { takeRecharge } from "./recharge.service.ts";
import { rechargesPerPeriod } from "./recharge-chart.ts";
import { amountOf, rechargeRequestOf } from "./recharge-input.ts";
import { accountStatement, statementRequest } from "./statement.ts";

const pms = "/api/blade-pms";
const tags = ["money"];

/** Button codes of the money operations (seeds 014 and 015). */
export const MONEY_CODES = {
  rechargeRead: [...readCodesOf(resources.owner), ...moneyScreens],
  recharge: ["ownerRecharge_recharge"],
  refund: ["ownerRecharge_refund"],
  correct: ["ownerRecharge_correct"],
  openElectric: ["meter_open_account"],
  openWater: ["water_open_account"],
  closeElectric: ["meter_close_account"],
  closeWater: ["water_close_account"],
};

/**
 * Calls of the spec on money records that are refused by design: the ledger and the accounts'
 * openings and closings are append-only. Who may ask (the buttons of the operation that would do
 * it), and the message saying why and what to do instead.
 */
const REFUSED_CALLS: readonly { path: string; codes: string[]; message: string }[] = [
  {
    path: "datarecharge/remove",
    codes: [...MONEY_CODES.recharge, ...MONEY_CODES.correct],
    message: "充值记录已入账,不能删除;如有错误请在「充值收费」中以冲正或退款登记更正",
  },
  {
    path: "dataopenaccount/submit",
    codes: [...MONEY_CODES.openElectric, ...MONEY_CODES.openWater],
    message: "开户记录由开户操作生成,不能直接新增或修改;请在「电表管理」或「水表管理」中为表计开户",
  },
  {
    path: "dataopenaccount/remove",
    codes: [...MONEY_CODES.openElectric, ...MONEY_CODES.openWater],
    message: "开户记录是账户的记录,不能删除;不再使用的账户请为表计办理销户",
  },
  {
    path: "datacloseaccount/submit",
    codes: [...MONEY_CODES.closeElectric, ...MONEY_CODES.closeWater],
    message: "销户记录由销户操作生成,不能直接新增或修改;请在「电表管理」或「水表管理」中为表计销户",
  },
  {
    path: "datacloseaccount/remove",
    codes: [...MONEY_CODES.closeElectric, ...MONEY_CODES.closeWater],
    message: "销户记录是账户的记录,不能删除;表计需要继续使用请重新开户",
  },
];

const actorOf = (user: CurrentUser): Actor => ({ userId: user.userId, name: user.realName || user.account });

/** A recharge type needs its own button: refunds and corrections are not for every cashier. */
const codesFor = (rechargeType: number) =>
  rechargeType === 2 ? MONEY_CODES.refund : rechargeType === 1 ? MONEY_CODES.recharge : MONEY_CODES.correct;

/**
 * Prepaid money (spec §7 PMS): recharges, refunds and corrections (datarecharge), the owners'
 * accounts (ownerRecharge), account opening (message/openAccount, waterparam/openAccount) and the
 * ledger check. Rules live in the services; these routes check permissions and read parameters.
 */
export async function moneyRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  registerMoneyApprovals(timeZone);
  registerClosingApprovals(timeZone);
  // Cuts held by a protection window go ahead when it ends; every process may sweep, the locks share it.
  // The daily close of yesterday runs once it is due; each tick is a single look when it is done.
  const sweeper = setInterval(() => {
    const now = new Date();
    runHeldCuts(db, now, timeZone).catch((error: unknown) =>
      app.log.warn({ err: error }, "held cuts failed"),
    );
    closeYesterdayIfDue(db, now, timeZone).catch((error: unknown) =>
      app.log.warn({ err: error }, "daily close failed"),
    );
  }, 60_000);
  sweeper.unref();
  app.addHook("onClose", async () => clearInterval(sweeper));
  await meterRechargeRoutes(app, opts);
  await moneyPolicyRoutes(app, opts);
  await accountDeskRoutes(app, {
    ...opts,
    closeCodes: { 1: MONEY_CODES.closeElectric, 2: MONEY_CODES.closeWater },
  });

  app.post(
    `${pms}/datarecharge/submit`,
    {
      schema: {
        tags,
        summary: "Book a recharge, refund or correction on an account (idempotent by idempotencyKey)",
      },
    },
    async (request) => {
      // Any money button first, so a caller without one learns nothing from the input's checks.
      await requirePermission(db, request, [
        ...MONEY_CODES.recharge,
        ...MONEY_CODES.refund,
        ...MONEY_CODES.correct,
      ]);
      const params = readParams(request);
      const header = request.headers["idempotency-key"];
      if (typeof header === "string" && params.idempotencyKey === undefined) params.idempotencyKey = header;
      const input = rechargeRequestOf(params);
      const user = await requirePermission(db, request, codesFor(input.rechargeType));
      const result = await takeRecharge(db, registryTenant(user, params), input, actorOf(user), timeZone, {
        approval: approvalGate(user),
      });
      // Held for approval is an answer, not an error: the instance id lets the console follow it.
      const message =
        result.state === 3
          ? "已提交审批,审批通过后入账"
          : result.state === 4
            ? "该笔操作审批未通过,未入账"
            : result.replayed
              ? "该笔操作已入账,未重复入账"
              : "入账成功";
      return ok(result, message);
    },
  );
  app.get(
    `${pms}/datarecharge/page`,
    { schema: { tags, summary: "Recharges with totals" } },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      return ok(await rechargePage(db, listTenant(user, params), params, timeZone));
    },
  );
  app.get(`${pms}/datarecharge/detail`, { schema: { tags, summary: "One recharge" } }, async (request) => {
    const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
    const params = readParams(request);
    const id = optionalId(params, "id");
    if (!id) throw badRequest("id: 请选择记录");
    const found = await rechargeDetail(db, registryTenant(user, params), id, timeZone);
    if (!found) throw notFound(NOT_FOUND_MESSAGE);
    return ok(found);
  });
  app.post(
    `${pms}/datarecharge/update`,
    { schema: { tags, summary: "Change the remark of a recharge (the money never changes)" } },
    async (request) => {
      const user = await requirePermission(db, request, [...MONEY_CODES.recharge, ...MONEY_CODES.correct]);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 请选择记录");
      for (const field of ["amount", "rechargeType", "paymentMethod", "accountId", "meterId"])
        if (params[field] !== undefined)
          throw badRequest(`${field}: 已入账的金额、类型和账户不能修改,请以冲正更正`);
      const remark = (optionalString(params, "remark") ?? "").trim();
      if (remark.length > 255) throw badRequest("remark: 备注最多 255 个字符");
      const rows = await db.query(
        "update pms_recharge set remark = $3, update_time = now() where tenant_id = $1 and id = $2 returning id",
        [registryTenant(user, params), id, remark],
      );
      if (rows.length === 0) throw notFound();
      return done("修改成功");
    },
  );
  app.get(
    `${pms}/ownerRecharge/page`,
    { schema: { tags, summary: "Owners with their accounts and balances" } },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      return ok(await ownerAccountsPage(db, listTenant(user, params), params));
    },
  );

  // Opening and closing accounts: one meter (meterId, or meterIds naming one) at once, all or
  // nothing, as always; a batch (meterIds) is a job whose meters are worked one by one (account-jobs.ts).
  for (const [path, energyType, codes, verb] of [
    ["message/openAccount", 1, MONEY_CODES.openElectric, "open"],
    ["waterparam/openAccount", 2, MONEY_CODES.openWater, "open"],
    ["message/closeAccount", 1, MONEY_CODES.closeElectric, "close"],
    ["waterparam/overAccountBatch", 2, MONEY_CODES.closeWater, "close"],
  ] as const) {
    app.post(
      `${pms}/${path}`,
      {
        schema: {
          tags,
          summary:
            verb === "open"
              ? "Open the accounts of meters (meterId, or meterIds as a batch job) with an opening deposit"
              : "Close the accounts of meters (meterId, or meterIds as a batch job): settle, refund or record the debt",
        },
      },
      async (request) => {
        const user = await requirePermission(db, request, codes);
        const params = readParams(request);
        const single = optionalId(params, "meterId");
        const meterIds = single ? [single] : idList(params, "meterIds");
        if (meterIds.length > BATCH_JOB_MAX_METERS)
          throw badRequest(`meterIds: 一次最多 ${BATCH_JOB_MAX_METERS} 块表`);
        const tenantId = registryTenant(user, params);
        const deposit =
          verb === "close" || optionalString(params, "deposit") === undefined
            ? 0n
            : amountOf(params, "deposit");
        if (meterIds.length > 1) {
          const kind = verb === "open" ? "openAccount" : "closeAccount";
          const job = { kind, energyType, meterIds, deposit, source: path } as const;
          const outcome = await db.transaction((tx) => startAccountJob(tx, user, tenantId, job));
          return ok(outcome, `已创建${verb === "open" ? "开户" : "销户"}任务,共 ${outcome.queued} 块表`);
        }
        if (verb === "close") {
          const actor = actorOf(user);
          // The desk's choice on supply: cut (the default), or kept on for a stated reason.
          const supply = closingSupplyOf(params);
          const closed = await closeAccounts(
            db,
            tenantId,
            energyType,
            meterIds,
            actor,
            timeZone,
            closingHold(user, actor),
            (tx, one) => settleClosingSupply(tx, user, tenantId, energyType, one, supply),
          );
          const waiting = closed.filter((c) => c.state === 0).length;
          // Held for approval is an answer, not an error: the instance id lets the console follow it.
          const held = closed.filter((c) => c.state === 3).length;
          return ok(
            closed,
            held > 0
              ? "销户退款已提交审批,审批通过后退款销户"
              : waiting === 0
                ? `销户成功 ${closed.length} 块表`
                : `销户成功 ${closed.length - waiting} 块表,${waiting} 块本地费控表待表计确认清零后退款销户`,
          );
        }
        const paymentMethod = depositMethodOf(params);
        const targets = meterIds.map((meterId) => ({ energyType, meterId, deposit, paymentMethod }));
        const opened = await openAccounts(db, tenantId, targets, actorOf(user), timeZone);
        return ok(opened, `开户成功 ${opened.length} 块表`);
      },
    );
  }

  for (const [path, status] of [
    ["dataopenaccount", 1],
    ["datacloseaccount", 2],
  ] as const) {
    app.get(
      `${pms}/${path}/page`,
      { schema: { tags, summary: status === 1 ? "Account openings" : "Account closings" } },
      async (request) => {
        const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
        const params = readParams(request);
        return ok(await accountOperationsPage(db, listTenant(user, params), params, status === 2, timeZone));
      },
    );
    app.get(
      `${pms}/${path}/detail`,
      { schema: { tags, summary: status === 1 ? "One account opening" : "One account closing" } },
      async (request) => {
        const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
        const params = readParams(request);
        const id = optionalId(params, "id");
        if (!id) throw badRequest("id: 请选择记录");
        const found = await accountOperationDetail(
          db,
          registryTenant(user, params),
          id,
          status === 2,
          timeZone,
        );
        if (!found) throw notFound(NOT_FOUND_MESSAGE);
        return ok(found);
      },
    );
  }
  for (const refusal of REFUSED_CALLS)
    registerRefusal(app, db, {
      url: `${pms}/${refusal.path}`,
      codes: refusal.codes,
      message: refusal.message,
      tags,
    });

  const homepage = `${pms}/homepage`;
  const dateTypeOf = (params: Record<string, unknown>): 1 | 2 | 3 => {
    const value = optionalString(params, "dateType") ?? "1";
    if (value !== "1" && value !== "2" && value !== "3")
      throw badRequest("dateType: 只能是 1(7天)、2(30天) 或 3(12个月)");
    return Number(value) as 1 | 2 | 3;
  };
  for (const [verb, by] of [
    ["rechargeTypeRatio", "recharge_type"],
    ["paymentMethodRatio", "payment_method"],
  ] as const) {
    app.get(
      `${homepage}/${verb}`,
      {
        schema: {
          tags,
          summary: `Money taken per ${by.replace("_", " ")} (dateType 1: 7 days, 2: 30 days, 3: 12 months)`,
        },
      },
      async (request) => {
        const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
        const params = readParams(request);
        const period = periodDays(dateTypeOf(params), new Date(), timeZone);
        // The platform administrator's home sums every tenant unless it names one.
        return ok(await moneyRatio(db, listTenant(user, params), by, period, timeZone));
      },
    );
  }
  // Not in the spec's call list: the tenant's money per period, for the bars beside the usage chart.
  app.get(
    `${homepage}/rechargeChart`,
    {
      schema: {
        tags,
        summary: "Recharges and refunds per day (dateType 1: 7 days, 2: 30 days) or per month (3: 12 months)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      const tenantId = listTenant(user, params);
      return ok(await rechargesPerPeriod(db, tenantId, dateTypeOf(params), new Date(), timeZone));
    },
  );
  for (const [verb, path] of [
    ["getOwnerPath", ownerUsagePath],
    ["getOwnerRechargePath", ownerRechargePath],
  ] as const) {
    app.get(
      `${homepage}/${verb}`,
      {
        schema: {
          tags,
          summary: "An owner's usage or recharges per day (ownerId, days: default 30, at most 366)",
        },
      },
      async (request) => {
        const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
        const params = readParams(request);
        const ownerId = optionalId(params, "ownerId");
        if (!ownerId) throw badRequest("ownerId: 请选择业主");
        const days = Number(optionalString(params, "days") ?? 30);
        if (!Number.isInteger(days) || days < 1 || days > 366) throw badRequest("days: 应为 1 到 366 的整数");
        return ok(await path(db, registryTenant(user, params), ownerId, days, new Date(), timeZone));
      },
    );
  }

  app.get(
    `${pms}/account/statement`,
    {
      schema: {
        tags,
        summary: "An account's statement over closed days: balances, daily usage and charges, recharges",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      const { accountId, from, to } = statementRequest(params);
      const statement = await accountStatement(
        db,
        registryTenant(user, params),
        accountId,
        from,
        to,
        timeZone,
      );
      if (!statement) throw notFound();
      return ok(statement);
    },
  );
  app.post(
    `${pms}/account/closeDay`,
    {
      schema: { tags, summary: "Run the daily close of a day again (idempotent: closed account-days stay)" },
    },
    async (request) => {
      await requirePermission(db, request, [], "administrator");
      const day = dayParam(readParams(request), "day");
      if (!day) throw badRequest("day: 请选择日期 (yyyy-MM-dd)");
      return ok({ day, written: await closeDay(db, day, timeZone) });
    },
  );
  app.get(
    `${pms}/ledger/check`,
    {
      schema: {
        tags,
        summary: "Prove every balance is the sum of its ledger; lists the accounts that differ",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, [], "admin");
      const mismatches = await checkLedger(db, isAdministrator(user) ? undefined : user.tenantId);
      return ok({ consistent: mismatches.length === 0, mismatches });
    },
  );
}
