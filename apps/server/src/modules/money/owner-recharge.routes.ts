import { COUNTER_SEARCH_PATH } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { listTenant, registryTenant } from "../pms/registry-access.ts";
import { changeAccountSchemes } from "./account-schemes.ts";
import { counterSearch } from "./counter-search.ts";
import { rechargeGroup } from "./group-recharge.ts";
import { MONEY_CODES } from "./money.routes.ts";
import { approvalGate } from "./money-approval.ts";
import { rechargeRequestOf } from "./recharge-input.ts";

const pms = "/api/blade-pms";
const tags = ["money"];

/**
 * ownerRecharge's own verbs (spec §7: ownerRecharge page, update, POST rechargeGroup; the page is in
 * money.routes.ts) and the counter's search (packages/contracts/src/counter.ts).
 */
export async function ownerRechargeRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    COUNTER_SEARCH_PATH,
    {
      schema: {
        tags,
        summary:
          "The counter's search: rooms by building and room, name or code, owners by name or phone, meters by number; each room with its owner and every meter apart",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.rechargeRead);
      const params = readParams(request);
      return ok(await counterSearch(db, request, listTenant(user, params), params));
    },
  );

  app.post(
    `${pms}/ownerRecharge/rechargeGroup`,
    {
      schema: {
        tags,
        summary:
          "Recharge the open server-kept account (energyType) of every owner of a group, all or nothing (idempotent by idempotencyKey)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["ownerRecharge_group"]);
      const params = readParams(request);
      const header = request.headers["idempotency-key"];
      if (typeof header === "string" && params.idempotencyKey === undefined) params.idempotencyKey = header;
      const ownerGroupId = optionalId(params, "ownerGroupId");
      if (!ownerGroupId) throw badRequest("ownerGroupId: 请选择业主分组");
      // The same reading of amount, method, remark and key as a single recharge at the counter.
      const input = rechargeRequestOf({ ...params, rechargeType: "1" });
      const result = await rechargeGroup(
        db,
        registryTenant(user, params),
        {
          ownerGroupId,
          energyType: input.energyType,
          amount: input.amount,
          paymentMethod: input.paymentMethod,
          remark: input.remark,
          idempotencyKey: input.idempotencyKey,
        },
        { userId: user.userId, name: user.realName || user.account },
        timeZone,
        approvalGate(user),
      );
      return ok(
        result,
        result.replayed ? "该分组充值已入账,未重复入账" : `分组充值成功 ${result.count} 个账户`,
      );
    },
  );

  app.post(
    `${pms}/ownerRecharge/update`,
    {
      schema: {
        tags,
        summary:
          "Change an open account's charging or alarm scheme (accountId, chargingSchemeId, alarmSchemeId); never money",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.recharge);
      const params = readParams(request);
      for (const field of ["amount", "balance"])
        if (optionalString(params, field) !== undefined)
          throw badRequest(`${field}: 余额只能通过充值、退费或冲正改变`);
      const accountId = optionalId(params, "accountId");
      if (!accountId) throw badRequest("accountId: 请选择账户");
      const chargingSchemeId = optionalId(params, "chargingSchemeId");
      const alarmSchemeId = optionalId(params, "alarmSchemeId");
      if (!chargingSchemeId && !alarmSchemeId) throw badRequest("chargingSchemeId: 请选择收费方案或告警方案");
      const changed = await changeAccountSchemes(
        db,
        registryTenant(user, params),
        { accountId, chargingSchemeId, alarmSchemeId },
        timeZone,
        { userId: user.userId, name: user.realName || user.account },
      );
      return ok(changed, "修改成功");
    },
  );
}
