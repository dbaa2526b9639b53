import { BillingInputError, fenToYuan, yuanToFen } from "@meterline/billing";
import { badRequest, forbidden } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { paramValue } from "../param/param-values.ts";
import { taskUser } from "../workflow/flow-items.ts";
import { onInstanceEnded } from "../workflow/instance-outcomes.ts";
import { startInstance } from "../workflow/workflow.service.ts";
import { type ApprovalGate, bookApproved, rejectHeld } from "./recharge.service.ts";

/**
 * Money approvals: a refund or correction minus above the tenant's threshold is stored as waiting
 * (nothing booked) and starts the shipped MoneyApproval process; one holder of the approver role
 * other than the requester approves (booked, once) or rejects (nothing booked, the reason kept).
 */

export const APPROVAL_PROCESS = "MoneyApproval";
const THRESHOLD_KEY = "money.approval.threshold";
const ROLE_KEY = "money.approval.role";
const BUSINESS_TABLE = "pms_recharge";

/**
 * The tenant's threshold in fen; null when none is set (no approval). A value that is not an
 * amount holds every such operation (0): an unreadable setting must not let money out unchecked.
 */
export async function approvalThreshold(db: Queryable, tenantId: string): Promise<bigint | null> {
  const text = (await paramValue(db, THRESHOLD_KEY, tenantId))?.trim();
  if (!text) return null;
  try {
    const fen = yuanToFen(text, THRESHOLD_KEY);
    return fen < 0n ? 0n : fen;
  } catch (error) {
    if (error instanceof BillingInputError) return 0n;
    throw error;
  }
}

/** Active users of the tenant holding the approver role, the requester left out. */
async function approversOf(tx: Queryable, tenantId: string, requesterId: string) {
  const role = (await paramValue(tx, ROLE_KEY, tenantId))?.trim() || "admin";
  const rows = await tx.query<{ id: string }>(
    `select u.id from sys_user u
      where u.tenant_id = $1 and u.is_deleted = 0 and u.status = 1 and u.id <> $2
        and exists (select 1 from sys_role r where r.tenant_id = u.tenant_id and r.is_deleted = 0
                     and r.role_alias = $3 and r.id::text = any(string_to_array(u.role_id, ',')))
      order by u.id limit 50`,
    [tenantId, requesterId || "0", role],
  );
  return { role, ids: rows.map((r) => r.id) };
}

/**
 * The gate takeRecharge asks before booking money that leaves an account: above the threshold it
 * starts the approval and answers its instance id. The process is always the common shipped one,
 * never a tenant's own deployment of that key (a tenant must not replace its own check).
 */
export function approvalGate(caller: CurrentUser): ApprovalGate {
  return async (tx, held) => {
    const threshold = await approvalThreshold(tx, held.tenantId);
    if (threshold === null || held.request.amount <= threshold) return undefined;
    const [definition] = await tx.query<{ id: string }>(
      "select id from wf_definition where tenant_id = '' and def_key = $1 order by version desc limit 1",
      [APPROVAL_PROCESS],
    );
    if (!definition) throw badRequest("amount: 超过审批金额, 但审批流程尚未部署");
    const approvers = await approversOf(tx, held.tenantId, caller.userId);
    if (approvers.ids.length === 0)
      throw badRequest(
        `amount: 超过审批金额 ${fenToYuan(threshold)} 元, 需他人审批, 但角色 ${approvers.role} 中没有申请人以外的审批人`,
      );
    return startInstance(
      tx,
      { ...caller, tenantId: held.tenantId },
      definition.id,
      `${BUSINESS_TABLE}:${held.id}`,
      {
        approvers: approvers.ids.map(taskUser).join(","),
        amount: fenToYuan(held.request.amount),
        rechargeType: held.request.rechargeType,
        accountId: held.accountId,
        reason: held.request.remark,
      },
      { bySystem: true },
    );
  };
}

/**
 * Settles the operation an approval instance was started for, in the transaction that ended it:
 * approved → booked (once: a second end finds it no longer waiting), otherwise rejected with the
 * approver's comment or the delete reason. Instances not started by the gate change nothing.
 */
export function registerMoneyApprovals(timeZone: string): void {
  onInstanceEnded(APPROVAL_PROCESS, async (tx, outcome) => {
    const [table, id] = outcome.businessKey.split(":", 2);
    if (table !== BUSINESS_TABLE || !id || !/^\d{1,19}$/.test(id)) return;
    const [row] = await tx.query<{ create_user: string | null }>(
      `select create_user::text as create_user from pms_recharge
        where id = $1 and tenant_id = $2 and approval_instance_id = $3`,
      [id, outcome.tenantId, outcome.instanceId],
    );
    if (!row) return;
    if (!outcome.deleted && outcome.endEventId === "approvedEnd") {
      // A second person, always: whatever the model says, the requester never approves their own.
      if (outcome.userId !== null && outcome.userId === row.create_user)
        throw forbidden("taskId: 不能审批自己提交的申请");
      await bookApproved(tx, outcome.tenantId, id, timeZone);
      return;
    }
    const reason = outcome.deleted ? `审批流程已删除: ${outcome.comment}` : outcome.comment || "已驳回";
    await rejectHeld(tx, outcome.tenantId, id, reason);
  });
}
