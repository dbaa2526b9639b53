import { yuanToFen } from "@meterline/billing";
import type { CommandEvidence } from "@meterline/gateway";
import type { Queryable } from "../../db/client.ts";
import { lockAccount } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import { countReadBack, type PurchasePayload, rememberPurchaseCount } from "./meter-purchase.ts";
import { COUNTER_CHANNEL, insertPayment } from "./payment.repository.ts";

const METER_WRITE: Actor = { name: "写表" };

/**
 * A purchase write reached its outcome; called in the transaction that moves the command to that
 * state, so the booking happens exactly when, and only once, the command becomes "success" (the
 * command's own state change cannot happen twice). success: the meter holds the money — the ledger
 * entry (recharge or opening deposit) is booked, the recharge becomes 1, and the meter's purchase
 * count moves to this purchase's. fail: nothing is booked, the recharge becomes 2, and the count
 * stays what the meter showed (a read-back tells it), so the next purchase carries the right one.
 */
export async function settlePurchase(
  tx: Queryable,
  command: { tenant_id: string; meter_id: string; payload: string },
  state: "success" | "fail",
  evidence: CommandEvidence,
  at: Date,
): Promise<void> {
  const payload = JSON.parse(command.payload) as PurchasePayload;
  const readCount = countReadBack(evidence);
  if (state === "fail") {
    if (payload.rechargeId)
      await tx.query("update pms_recharge set state = 2, update_time = now() where id = $1 and state = 0", [
        payload.rechargeId,
      ]);
    if (readCount !== undefined)
      await rememberPurchaseCount(tx, command.tenant_id, command.meter_id, readCount, at);
    return;
  }
  const account = await lockAccount(tx, command.tenant_id, payload.accountId);
  if (!account) throw new Error(`purchase for account ${payload.accountId}, which does not exist`);
  const booked = await book(tx, account, {
    type: payload.deposit ? LEDGER_TYPE.openingDeposit : LEDGER_TYPE.recharge,
    amount: yuanToFen(payload.amount),
    cause: `${payload.deposit ? "开户预存" : "充值"}写表确认(购电次数 ${payload.purchaseCount})`,
    actor: METER_WRITE,
    rechargeId: payload.rechargeId,
  });
  if (payload.rechargeId) {
    // The money taken at the counter counts as received once the meter holds it: a refused write
    // hands it back, so only a confirmed purchase records its paid payment.
    const [recharge] = await tx.query<{
      payment_method: number;
      receipt_no: string;
      remark: string;
      operator: string;
      create_user: string | null;
    }>(
      `update pms_recharge set state = 1, ledger_id = $2, balance_after = $3, update_time = now()
        where id = $1 and state = 0
        returning payment_method, receipt_no, remark, operator, create_user::text as create_user`,
      [payload.rechargeId, booked.ledgerId, booked.balanceAfter.toString()],
    );
    if (recharge) {
      const paymentId = await insertPayment(tx, {
        tenantId: command.tenant_id,
        accountId: account.id,
        amount: yuanToFen(payload.amount),
        paymentMethod: recharge.payment_method,
        channel: COUNTER_CHANNEL,
        state: 1,
        transactionNo: recharge.receipt_no,
        remark: recharge.remark,
        actor: { name: recharge.operator, ...(recharge.create_user ? { userId: recharge.create_user } : {}) },
      });
      await tx.query("update pms_recharge set payment_id = $2 where id = $1", [
        payload.rechargeId,
        paymentId,
      ]);
    }
  }
  await rememberPurchaseCount(
    tx,
    command.tenant_id,
    command.meter_id,
    Math.max(payload.purchaseCount, readCount ?? 0),
    at,
  );
  // The shadow balance goes on from readings taken after the meter confirmed: an older one would
  // show the balance before this purchase and read as usage.
  await tx.query("update pms_account set priced_time = greatest(priced_time, $2) where id = $1", [
    account.id,
    at,
  ]);
}
