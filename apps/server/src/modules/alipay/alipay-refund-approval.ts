import { AsyncResource } from "node:async_hooks";
import type { Queryable } from "../../db/client.ts";
import { type HeldDecision, onHeldRechargeDecided } from "../money/money-approval.ts";
import { failAlipayRefund } from "./alipay.repository.ts";
import {
  type AlipayDeps,
  type BookedAlipayRefund,
  REFUND_WAITING,
  sendAlipayRefund,
} from "./alipay.service.ts";
import { loadAlipayApp } from "./alipay-app.ts";

/**
 * Alipay refunds held for approval, as WeChat Pay's (wxpay/refund-approval.ts): the decision is
 * taken in the approver's transaction. A rejection frees the amount reserved on the order; an
 * approval has its ledger refund booked there and marks the refund APPROVED, to be asked of Alipay
 * once that transaction has committed (a call outside never sits in a transaction that may roll
 * back). The sender takes each APPROVED refund under its row lock, so each is sent once.
 */
const APPROVED = "APPROVED";
const senders = new Set<(refundId: string) => void>();
/** Made at start, outside any transaction: the kicks run from here, not inside the approver's. */
let outside: AsyncResource | undefined;

async function decide(tx: Queryable, decision: HeldDecision) {
  const [refund] = await tx.query<{ id: string; alipay_pay_id: string; amount: string }>(
    `select id::text as id, alipay_pay_id::text as alipay_pay_id, amount::text as amount from pms_alipay_refund
      where tenant_id = $1 and recharge_id = $2 and status = $3 for update`,
    [decision.tenantId, decision.id, REFUND_WAITING],
  );
  if (!refund) return;
  if (!decision.approved) {
    await failAlipayRefund(tx, refund.id, refund.alipay_pay_id, BigInt(refund.amount), "REJECTED");
    return;
  }
  await tx.query("update pms_alipay_refund set status = $2, update_time = now() where id = $1", [
    refund.id,
    APPROVED,
  ]);
  const run = () => {
    for (const send of senders) send(refund.id);
  };
  if (outside) outside.runInAsyncScope(() => setImmediate(run));
}

/** Takes one approved refund to send (PROCESSING from now on), or undefined when none is left. */
async function takeApproved(deps: AlipayDeps, id: string): Promise<BookedAlipayRefund | undefined> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{
      tenant_id: string;
      status: string;
      out_request_no: string;
      recharge_id: string;
      amount: string;
      reason: string;
      order_id: string;
      out_trade_no: string;
      account_id: string;
    }>(
      `select r.tenant_id, r.status, r.out_request_no, r.recharge_id::text as recharge_id, r.amount::text as amount,
              r.reason, p.id::text as order_id, p.out_trade_no, p.account_id::text as account_id
         from pms_alipay_refund r join pms_alipay_pay p on p.id = r.alipay_pay_id
        where r.id = $1
        for update of r`,
      [id],
    );
    // Locked by id, not by status: a kick waits here for the approval to commit, then reads it.
    if (row?.status !== APPROVED) return undefined;
    await tx.query("update pms_alipay_refund set status = 'PROCESSING', update_time = now() where id = $1", [
      id,
    ]);
    return {
      tenantId: row.tenant_id,
      refundId: id,
      outRequestNo: row.out_request_no,
      rechargeId: row.recharge_id,
      amountFen: BigInt(row.amount),
      reason: row.reason,
      order: { id: row.order_id, out_trade_no: row.out_trade_no, account_id: row.account_id },
    };
  });
}

async function sendApproved(deps: AlipayDeps, id: string): Promise<boolean> {
  const refund = await takeApproved(deps, id);
  if (!refund) return false;
  try {
    await sendAlipayRefund(deps, await loadAlipayApp(deps.db, deps.cipher, refund.tenantId), refund);
    return true;
  } catch (error) {
    // Refused (booked back) or unreachable (left PROCESSING): either way recorded.
    deps.log("approved Alipay refund not sent", { refundId: id, error: String(error) });
    return false;
  }
}

/** Sends every approved refund left unsent (after a restart). */
export async function sendApprovedAlipayRefunds(deps: AlipayDeps, limit = 50): Promise<number> {
  const due = await deps.db.query<{ id: string }>(
    "select id::text as id from pms_alipay_refund where status = $1 order by id limit $2",
    [APPROVED, limit],
  );
  let sent = 0;
  for (const { id } of due) if (await sendApproved(deps, id)) sent += 1;
  return sent;
}

/** Registers this server's sender; answers how to unregister it when the server closes. */
export function registerAlipayRefundApprovals(deps: AlipayDeps): () => void {
  outside ??= new AsyncResource("alipay-approved-refunds");
  onHeldRechargeDecided("alipay-refund", decide);
  const send = (refundId: string) => {
    sendApproved(deps, refundId).catch((error: unknown) =>
      deps.log("approved Alipay refunds failed", { error: String(error) }),
    );
  };
  senders.add(send);
  return () => senders.delete(send);
}
