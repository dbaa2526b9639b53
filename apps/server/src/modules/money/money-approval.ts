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
 * Money approvals: money leaving an account above the tenant's threshold (a refund or correction
 * minus at the counter, a WeChat Pay refund, a closing's refund) is stored as waiting (nothing
 * booked) and starts the shipped MoneyApproval process; one holder of the approver role other than
 * the requester approves (booked, once) or rejects (nothing booked, the reason kept).
 */

export const APPROVAL_PROCESS = "MoneyApproval";
export const THRESHOLD_KEY = "money.approval.threshold";
export const ROLE_KEY = "money.approval.role";
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

/** The role alias whose holders approve (the tenant's, else the platform's default, else admin). */
export async function approverRole(db: Queryable, tenantId: string): Promise<string> {
  return (await paramValue(db, ROLE_KEY, tenantId))?.trim() || "admin";
}

/** Active users of the tenant holding the approver role, the requester left out. */
async function approversOf(tx: Queryable, tenantId: string, requesterId: string) {
  const role = await approverRole(tx, tenantId);
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

/** One operation to hold: where it is kept (business table and id), its amount and what the approvers read. */
export interface HoldRequest {
  tenantId: string;
  table: string;
  id: string;
  amount: bigint;
  variables: Record<string, unknown>;
}

/**
 * Starts the approval of money leaving an account when the amount is above the tenant's
 * threshold, and answers its instance id (undefined: no approval needed, book at once). The
 * process is always the common shipped one, never a tenant's own deployment of that key (a tenant
 * must not replace its own check).
 */
export async function requestApproval(
  tx: Queryable,
  caller: CurrentUser,
  held: HoldRequest,
): Promise<string | undefined> {
  const threshold = await approvalThreshold(tx, held.tenantId);
  if (threshold === null || held.amount <= threshold) return undefined;
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
    `${held.table}:${held.id}`,
    { approvers: approvers.ids.map(taskUser).join(","), amount: fenToYuan(held.amount), ...held.variables },
    { bySystem: true },
  );
}

/** The gate takeRecharge asks before booking money that leaves an account (refunds, corrections minus). */
export function approvalGate(caller: CurrentUser): ApprovalGate {
  return (tx, held) =>
    requestApproval(tx, caller, {
      tenantId: held.tenantId,
      table: BUSINESS_TABLE,
      id: held.id,
      amount: held.request.amount,
      variables: {
        rechargeType: held.request.rechargeType,
        accountId: held.accountId,
        reason: held.request.remark,
      },
    });
}

/** The approver's decision on one held operation, given to the module that keeps it. */
export interface HeldDecision {
  tenantId: string;
  /** The id in the business table. */
  id: string;
  instanceId: string;
  approved: boolean;
  /** The approver's comment, or why the approval ended without one. */
  reason: string;
}

type Settler = (tx: Queryable, decision: HeldDecision) => Promise<void>;

/** What books or drops a held operation, by the business table that keeps it. */
const settlers = new Map<string, Settler>();
/** Others told after a held refund or correction was settled (a WeChat refund waits on its own), by name. */
const rechargeListeners = new Map<string, Settler>();

/** Registers how the operations kept in `table` are settled when their approval ends. */
export function settleHeldIn(table: string, settler: Settler): void {
  settlers.set(table, settler);
}

/** Registers a listener told of every decision on a held refund or correction (id: pms_recharge's). */
export function onHeldRechargeDecided(name: string, listener: Settler): void {
  rechargeListeners.set(name, listener);
}

/**
 * Settles the operation an approval instance was started for, in the transaction that ended it:
 * approved → booked (once: a second end finds it no longer waiting), otherwise rejected with the
 * approver's comment or the delete reason. Instances not started by a gate change nothing.
 */
export function registerMoneyApprovals(timeZone: string): void {
  settleHeldIn(BUSINESS_TABLE, async (tx, decision) => {
    const settled = decision.approved
      ? await bookApproved(tx, decision.tenantId, decision.id, timeZone)
      : await rejectHeld(tx, decision.tenantId, decision.id, decision.reason);
    if (settled) for (const listener of rechargeListeners.values()) await listener(tx, decision);
  });
  onInstanceEnded(APPROVAL_PROCESS, async (tx, outcome) => {
    const [table, id] = outcome.businessKey.split(":", 2);
    const settle = table ? settlers.get(table) : undefined;
    if (!settle || !id || !/^\d{1,19}$/.test(id)) return;
    // Only the instance the gate started for that row settles it (the table is a registered name).
    const [started] = await tx.query<{ start_user: string }>(
      `select i.start_user::text as start_user from wf_instance i
        where i.id = $1 and i.tenant_id = $2
          and exists (select 1 from ${table} h where h.id = $3 and h.tenant_id = $2 and h.approval_instance_id = i.id)`,
      [outcome.instanceId, outcome.tenantId, id],
    );
    if (!started) return;
    const approved = !outcome.deleted && outcome.endEventId === "approvedEnd";
    // A second person, always: whatever the model says, the requester never approves their own.
    if (approved && outcome.userId !== null && outcome.userId === started.start_user)
      throw forbidden("taskId: 不能审批自己提交的申请");
    const reason = outcome.deleted ? `审批流程已删除: ${outcome.comment}` : outcome.comment || "已驳回";
    await settle(tx, {
      tenantId: outcome.tenantId,
      id,
      instanceId: outcome.instanceId,
      approved,
      reason: approved ? outcome.comment : reason,
    });
  });
}
