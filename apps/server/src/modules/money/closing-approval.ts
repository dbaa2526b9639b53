import { fenToYuan, yuanToFen } from "@meterline/billing";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { type CurrentUser, serviceUser } from "../auth/current-user.ts";
import type { Actor } from "./account-book.ts";
import { type ClosingHold, closeAccountIn } from "./account-closing.ts";
import { settleClosingSupply } from "./closing-supply.ts";
import { approvalThreshold, requestApproval, settleHeldIn } from "./money-approval.ts";

/**
 * Closings whose refund is above the tenant's approval threshold. A held close waits: nothing is
 * booked and the account stays open (usage keeps being priced on it) until a second person
 * decides. Approved, the close completes as any close would at that moment: usage priced to the
 * last reading, the balance of that moment refunded, the account closed. Rejected, the account
 * simply stays open, with the reason kept on the request.
 */

export const CLOSE_TABLE = "pms_close_hold";

/** The gate of a single close asked at the counter or the meter screens (message/closeAccount). */
export function closingHold(caller: CurrentUser, actor: Actor): ClosingHold {
  return async (tx, closing) => {
    const [waiting] = await tx.query(
      `select 1 from ${CLOSE_TABLE} where tenant_id = $1 and account_id = $2 and state = 3`,
      [closing.tenantId, closing.accountId],
    );
    if (waiting) throw badRequest(`meterIds: 表计 ${closing.meterId} 的销户已提交审批,请等待审批结果`);
    const id = nextId();
    const instanceId = await requestApproval(tx, caller, {
      tenantId: closing.tenantId,
      table: CLOSE_TABLE,
      id,
      amount: closing.amount,
      variables: { accountId: closing.accountId, reason: "销户退款" },
    });
    if (!instanceId) return undefined;
    await tx.query(
      `insert into ${CLOSE_TABLE} (id, tenant_id, energy_type, meter_id, account_id, amount, approval_instance_id,
                                   operator, create_user)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        closing.tenantId,
        closing.energyType,
        closing.meterId,
        closing.accountId,
        closing.amount.toString(),
        instanceId,
        actor.name.slice(0, 64),
        actor.userId || null,
      ],
    );
    return {
      accountId: closing.accountId,
      meterId: closing.meterId,
      refunded: "0.00",
      debt: "0.00",
      state: 3,
      commandId: null,
      processInstanceId: instanceId,
    };
  };
}

/**
 * The gate of a batch closing job: a job cannot wait for a person, so a meter whose refund is above
 * the threshold is refused with the reason (the job records it, the others go on); it is closed on
 * its own, where the close waits for approval.
 */
export const closingRefusal: ClosingHold = async (tx, closing) => {
  const threshold = await approvalThreshold(tx, closing.tenantId);
  if (threshold !== null && closing.amount > threshold)
    throw badRequest(
      `meterIds: 表计 ${closing.meterId} 销户退款 ${fenToYuan(closing.amount)} 元超过审批金额 ${fenToYuan(threshold)} 元,请单独销户并提交审批`,
    );
  return undefined;
};

/** Settles a held close when its approval ends: approved → closed now, else left open. */
export function registerClosingApprovals(timeZone: string): void {
  settleHeldIn(CLOSE_TABLE, async (tx, decision) => {
    const [held] = await tx.query<{
      energy_type: 1 | 2;
      meter_id: string;
      account_id: string;
      operator: string;
      create_user: string | null;
    }>(
      `select energy_type, meter_id::text as meter_id, account_id::text as account_id, operator,
              create_user::text as create_user
         from ${CLOSE_TABLE} where id = $1 and tenant_id = $2 and state = 3 for update`,
      [decision.id, decision.tenantId],
    );
    if (!held) return;
    if (!decision.approved) {
      await markHold(tx, decision.id, 4, decision.reason, null);
      return;
    }
    const [account] = await tx.query<{ status: number }>(
      "select status from pms_account where id = $1 and tenant_id = $2",
      [held.account_id, decision.tenantId],
    );
    if (account?.status !== 1) {
      await markHold(tx, decision.id, 4, "账户已不在开户状态,未再销户", null);
      return;
    }
    // The close is the requester's, as the ledger names it; the approval is in the instance's steps.
    const actor = { ...(held.create_user ? { userId: held.create_user } : {}), name: held.operator };
    const closed = await closeAccountIn(
      tx,
      decision.tenantId,
      held.energy_type,
      held.meter_id,
      actor,
      timeZone,
    );
    // Supply goes with the account, as at the desk: a remote-control meter is cut (read back by the
    // gateway), in the requester's name; the desk's keep-on choice applies only to closes done at once.
    const requester = serviceUser(decision.tenantId, "account/close", {
      ...(held.create_user ? { userId: held.create_user } : {}),
      realName: held.operator,
    });
    await settleClosingSupply(tx, requester, decision.tenantId, held.energy_type, closed, {
      keep: false,
      reason: "",
    });
    await markHold(tx, decision.id, 1, decision.reason, closed.refunded);
  });
}

async function markHold(tx: Queryable, id: string, state: 1 | 4, note: string, refunded: string | null) {
  await tx.query(
    `update ${CLOSE_TABLE} set state = $2, approval_note = $3, refunded = $4, update_time = now() where id = $1`,
    [id, state, note.slice(0, 1000), refunded === null ? null : yuanToFen(refunded).toString()],
  );
}
