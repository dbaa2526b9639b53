import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { requireInstanceReader } from "../workflow/instance-readers.ts";
import { approvalRequest } from "./approval-reads.ts";
import { readPolicy, savePolicy, saveWarnDays, thresholdOf, warnDaysInput } from "./money-policy.ts";

const pms = "/api/blade-pms";
const tags = ["money"];

/** Button codes of 资金审批设置 (seed 048). */
export const POLICY_CODES = { read: ["moneyPolicy", "moneyPolicy_edit"], edit: ["moneyPolicy_edit"] };

/**
 * The tenant's money policy (read and write, always the caller's own tenant: a tenant decides its
 * own approvals) and the held operation behind a MoneyApproval instance (its handle page).
 */
export async function moneyPolicyRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${pms}/money-policy/detail`,
    { schema: { tags, summary: "The tenant's money policy: approval threshold and approver role" } },
    async (request) => {
      const user = await requirePermission(db, request, POLICY_CODES.read);
      return ok(await readPolicy(db, user.tenantId));
    },
  );

  app.post(
    `${pms}/money-policy/submit`,
    {
      schema: {
        tags,
        summary: "Set the tenant's money policy (threshold in yuan, empty = no approval; approverRole alias)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, POLICY_CODES.edit);
      const params = readParams(request);
      if (!("threshold" in params)) throw badRequest("threshold: 请输入审批金额,留空为不审批");
      const threshold = thresholdOf(params.threshold);
      const approverRole = optionalString(params, "approverRole") ?? "";
      await db.transaction((tx) => savePolicy(tx, user, user.tenantId, { threshold, approverRole }));
      return ok(await readPolicy(db, user.tenantId), "保存成功");
    },
  );

  app.post(
    `${pms}/money-policy/warn-days`,
    {
      schema: {
        tags,
        summary:
          "Set the tenant's owner warnings before the forecast cut (warnDays: days ahead, 0 or empty = off)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, POLICY_CODES.edit);
      const days = warnDaysInput(readParams(request).warnDays);
      await db.transaction((tx) => saveWarnDays(tx, user, user.tenantId, days));
      return ok(await readPolicy(db, user.tenantId), "保存成功");
    },
  );

  app.get(
    `${pms}/money-approval/detail`,
    { schema: { tags, summary: "The held operation of a money approval (processInstanceId)" } },
    async (request) => {
      const user = await requirePermission(db, request, []);
      const processInstanceId = optionalId(readParams(request), "processInstanceId");
      if (!processInstanceId) throw badRequest("processInstanceId: 请选择审批");
      // Its participants (requester, approvers) and the tenant's administrators, as for its steps.
      await requireInstanceReader(db, user, processInstanceId);
      const found = await approvalRequest(db, user.tenantId, processInstanceId, timeZone);
      if (!found) throw notFound("processInstanceId: 审批不存在");
      return ok(found);
    },
  );
}
