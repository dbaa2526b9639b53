import { AsyncResource } from "node:async_hooks";
import type { Queryable } from "../../db/client.ts";
import { type HeldDecision, onHeldRechargeDecided } from "../money/money-approval.ts";
import { failRefund } from "./wxpay.repository.ts";
import {
  type BookedRefund,
  loadMerchant,
  REFUND_WAITING,
  sendRefund,
  type WxpayDeps,
} from "./wxpay.service.ts";

/**
 * WeChat Pay refunds held for approval. The decision is taken in the approver's transaction: a
 * rejection frees the reserved amount on the order (status REJECTED, nothing was booked); an
 * approval has its ledger refund booked there (the held recharge) and marks the refund APPROVED,
 * to be asked of WeChat Pay once that transaction has committed: a call to the outside never sits
 * inside a transaction that may still roll back. The sender takes each APPROVED refund under its
 * row lock, so it waits for the approval to commit and sends each refund once.
 */

const APPROVED = "APPROVED";
/** Every running server's sender (one per server in a process of tests; one in production). */
const senders = new Set<(refundId: string) => void>();
/** Made at start, outside any transaction: the kicks run from here, not inside the approver's. */
let outside: AsyncResource | undefined;

async function decide(tx: Queryable, decision: HeldDecision) {
  const [refund] = await tx.query<{ id: string; wx_pay_id: string; amount: string }>(
    `select id::text as id, wx_pay_id::text as wx_pay_id, amount::text as amount from pms_wx_refund
      where tenant_id = $1 and recharge_id = $2 and status = $3 for update`,
    [decision.tenantId, decision.id, REFUND_WAITING],
  );
  if (!refund) return;
  if (!decision.approved) {
    await failRefund(tx, refund.id, refund.wx_pay_id, BigInt(refund.amount), "REJECTED");
    return;
  }
  await tx.query("update pms_wx_refund set status = $2, update_time = now() where id = $1", [
    refund.id,
    APPROVED,
  ]);
  const run = () => {
    for (const send of senders) send(refund.id);
  };
  if (outside) outside.runInAsyncScope(() => setImmediate(run));
}

/** Takes one approved refund to send (PROCESSING from now on), or undefined when none is left. */
async function takeApproved(deps: WxpayDeps, id: string): Promise<BookedRefund | undefined> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{
      tenant_id: string;
      status: string;
      out_refund_no: string;
      recharge_id: string;
      amount: string;
      reason: string;
      order_id: string;
      out_trade_no: string;
      order_amount: string;
      account_id: string;
    }>(
      `select r.tenant_id, r.status, r.out_refund_no, r.recharge_id::text as recharge_id, r.amount::text as amount, r.reason,
              p.id::text as order_id, p.out_trade_no, p.amount::text as order_amount, p.account_id::text as account_id
         from pms_wx_refund r join pms_wx_pay p on p.id = r.wx_pay_id
        where r.id = $1
        for update of r`,
      [id],
    );
    // Locked by id, not by status: a kick waits here for the approval to commit, then reads it.
    if (row?.status !== APPROVED) return undefined;
    await tx.query("update pms_wx_refund set status = 'PROCESSING', update_time = now() where id = $1", [id]);
    return {
      tenantId: row.tenant_id,
      refundId: id,
      outRefundNo: row.out_refund_no,
      rechargeId: row.recharge_id,
      amountFen: BigInt(row.amount),
      reason: row.reason,
      order: {
        id: row.order_id,
        out_trade_no: row.out_trade_no,
        amount: row.order_amount,
        account_id: row.account_id,
      },
    };
  });
}

/** Sends one approved refund to WeChat Pay, when it is (still) approved and unsent. */
async function sendApproved(deps: WxpayDeps, id: string): Promise<boolean> {
  const refund = await takeApproved(deps, id);
  if (!refund) return false;
  try {
    await sendRefund(deps, await loadMerchant(deps.db, deps.cipher, refund.tenantId), refund);
    return true;
  } catch (error) {
    // Refused (booked back) or unreachable (left PROCESSING for the bill): either way recorded.
    deps.log("approved WeChat refund not sent", { refundId: id, error: String(error) });
    return false;
  }
}

/** Sends every approved refund of this database left unsent (the sweep, after a restart). */
export async function sendApprovedRefunds(deps: WxpayDeps, limit = 50): Promise<number> {
  const due = await deps.db.query<{ id: string }>(
    "select id::text as id from pms_wx_refund where status = $1 order by id limit $2",
    [APPROVED, limit],
  );
  let sent = 0;
  for (const { id } of due) if (await sendApproved(deps, id)) sent += 1;
  return sent;
}

/** Registers this server's sender; answers how to unregister it when the server closes. */
export function registerRefundApprovals(deps: WxpayDeps): () => void {
  outside ??= new AsyncResource("wxpay-approved-refunds");
  onHeldRechargeDecided("wxpay-refund", decide);
  const send = (refundId: string) => {
    sendApproved(deps, refundId).catch((error: unknown) =>
      deps.log("approved WeChat refunds failed", { error: String(error) }),
    );
  };
  senders.add(send);
  return () => senders.delete(send);
}
