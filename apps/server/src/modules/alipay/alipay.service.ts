import { randomBytes } from "node:crypto";
import { fenToYuan } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { openAccountOf } from "../money/account.repository.ts";
import type { Actor } from "../money/account-book.ts";
import { insertPayment } from "../money/payment.repository.ts";
import { closePaymentIn, confirmPaymentIn } from "../money/payment.service.ts";
import { type ApprovalGate, takeRecharge, within } from "../money/recharge.service.ts";
import {
  ALIPAY_STATE,
  type AlipayOrderRow,
  type AlipayTradeType,
  alipayOrderById,
  failAlipayRefund,
  insertAlipayOrder,
  insertAlipayRefund,
  lockAlipayOrder,
  lockAlipayOrderByTradeNo,
  setAlipayPaid,
  setAlipayState,
  setQrCode,
  settleAlipayRefund,
} from "./alipay.repository.ts";
import { type AlipayApp, loadAlipayApp } from "./alipay-app.ts";
import { AlipayCallError, asApiError, callAlipay, wapPayUrl } from "./alipay-client.ts";
import {
  fen,
  fromShanghaiTime,
  type Params,
  shanghaiTime,
  verifyNotification,
  yuan,
} from "./alipay-protocol.ts";

/** What the Alipay rules need: the database, the key of stored secrets, the tenant clock, a log. */
export interface AlipayDeps {
  db: Db;
  cipher: FieldCipher;
  timeZone: string;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** An order stays payable this long; a query afterwards closes it. */
export const ORDER_MINUTES = 15;
/** PAYMENT_METHOD 4 (支付宝): what an Alipay payment is booked as, beside 5 for WeChat Pay online. */
export const ALIPAY_PAYMENT_METHOD = 4;
const ALIPAY_ACTOR: Actor = { name: "支付宝" };

/**
 * Who a confirmed order's recharge names as its operator: the cashier who took it at the counter
 * (a scanned payment code, a QR code shown there), else the channel itself (an owner's own payment).
 */
const bookedBy = (order: { operator: string; create_user: string | null }): Actor =>
  order.create_user ? { name: order.operator, userId: order.create_user } : ALIPAY_ACTOR;
/** A refund waiting for its approval: nothing booked, its amount reserved on the order. */
export const REFUND_WAITING = "APPROVAL";

export interface AlipayOrderInput {
  tenantId: string;
  /** The owner the order must belong to (the owner's page passes its signed-in owner). */
  ownerId?: string;
  accountId?: string;
  meterId?: string;
  energyType?: 1 | 2;
  amountFen: bigint;
  channel: AlipayTradeType;
  /** Where the phone browser comes back after a wap payment. */
  returnUrl?: string;
  actor: Actor;
}

export interface AlipayOrderView {
  id: string;
  outTradeNo: string;
  tradeType: AlipayTradeType;
  amount: string;
  state: number;
  qrCode: string;
  tradeNo: string;
  paidTime: Date | null;
  expireTime: Date;
  rechargeId: string;
  refundAmount: string;
  accountId: string;
  ownerId: string;
}

const viewOf = (row: AlipayOrderRow): AlipayOrderView => ({
  id: row.id,
  outTradeNo: row.out_trade_no,
  tradeType: row.trade_type,
  amount: fenToYuan(BigInt(row.amount)),
  state: row.state,
  qrCode: row.qr_code,
  tradeNo: row.trade_no,
  paidTime: row.paid_time,
  expireTime: row.expire_time,
  rechargeId: row.recharge_id ?? "",
  refundAmount: fenToYuan(BigInt(row.refund_amount)),
  accountId: row.account_id,
  ownerId: row.owner_id,
});

/** The open, server-kept account an order pays into, which must be the owner's when one is named. */
async function orderAccount(tx: Queryable, input: AlipayOrderInput): Promise<string> {
  let accountId = input.accountId;
  if (!accountId) {
    if (!input.meterId) throw badRequest("accountId: 请选择账户或表计");
    accountId = await openAccountOf(tx, input.tenantId, input.energyType ?? 1, input.meterId);
    if (!accountId) throw badRequest("meterId: 该表计尚未开户");
  }
  const [account] = await tx.query<{ status: number; control_status: number; owner_id: string }>(
    "select status, control_status, owner_id::text as owner_id from pms_account where id = $1 and tenant_id = $2",
    [accountId, input.tenantId],
  );
  if (!account || (input.ownerId && account.owner_id !== input.ownerId))
    throw notFound("accountId: 账户不存在");
  if (account.status !== 1) throw badRequest("accountId: 账户已销户");
  if (account.control_status !== 1) throw badRequest("accountId: 本地费控表请在柜台写表充值");
  return accountId;
}

/** Whole fen, above zero, within the tenant's limit: checked before any order exists. */
function checkAmount(amount: bigint, limitFen: bigint): bigint {
  if (amount <= 0n) throw badRequest("amount: 金额必须大于 0");
  if (amount > limitFen) throw badRequest(`amount: 单笔金额不能超过 ${fenToYuan(limitFen)} 元`);
  return amount;
}

/**
 * The unpaid payment of method 4 (支付宝) and its order row, in one transaction, before anything is
 * asked of Alipay: whatever Alipay later says finds its order.
 */
export async function openAlipayOrder(
  deps: AlipayDeps,
  app: AlipayApp,
  input: AlipayOrderInput,
  outTradeNo: string,
) {
  const amount = checkAmount(input.amountFen, app.maxAmountFen);
  const expireTime = new Date(Date.now() + ORDER_MINUTES * 60_000);
  const subject = "预付费充值";
  const id = await deps.db.transaction(async (tx) => {
    const accountId = await orderAccount(tx, input);
    const paymentId = await insertPayment(tx, {
      tenantId: input.tenantId,
      accountId,
      amount,
      paymentMethod: ALIPAY_PAYMENT_METHOD,
      channel: input.channel === "code" ? "counter" : "online",
      state: 0,
      transactionNo: "",
      remark: `支付宝 ${outTradeNo}`,
      actor: input.actor,
    });
    if (!paymentId) throw notFound("accountId: 账户不存在");
    return insertAlipayOrder(tx, {
      tenantId: input.tenantId,
      accountId,
      paymentId,
      outTradeNo,
      tradeType: input.channel,
      amount,
      appId: app.appId,
      expireTime,
      subject,
      operator: input.actor.name,
      userId: input.actor.userId ?? null,
    });
  });
  return { id, amount, subject, expireTime };
}

/**
 * Takes an order: an unpaid payment of method 4 (支付宝) and its order row in one transaction, then
 * the trade at Alipay. A QR order is precreated (its qr_code answered); a wap order answers the
 * signed URL the phone browser opens, where Alipay creates the trade.
 */
export async function createAlipayOrder(
  deps: AlipayDeps,
  input: AlipayOrderInput,
): Promise<AlipayOrderView & { payUrl?: string }> {
  if (input.channel !== "qr" && input.channel !== "wap") throw badRequest("channel: 只能是 qr 或 wap");
  const app = await loadAlipayApp(deps.db, deps.cipher, input.tenantId);
  const outTradeNo = `MLA${Date.now()}${randomBytes(5).toString("hex").toUpperCase()}`;
  const { id, amount, subject, expireTime } = await openAlipayOrder(deps, app, input, outTradeNo);
  const biz = {
    out_trade_no: outTradeNo,
    total_amount: yuan(amount),
    subject,
    time_expire: shanghaiTime(expireTime),
  };
  let payUrl: string | undefined;
  if (input.channel === "wap") {
    payUrl = wapPayUrl(app, { ...biz, product_code: "QUICK_WAP_WAY" }, input.returnUrl ?? "");
  } else {
    try {
      const answer = await callAlipay(app, "alipay.trade.precreate", biz, { notify: true });
      await setQrCode(deps.db, id, String(answer.qr_code ?? "").slice(0, 255));
    } catch (error) {
      if (!(error instanceof AlipayCallError)) throw error;
      // Refused or unreachable: the order cannot be paid, its payment closes.
      await deps.db.transaction(async (tx) => {
        const row = await lockAlipayOrder(tx, input.tenantId, id);
        if (row?.state !== ALIPAY_STATE.unpaid) return;
        await setAlipayState(tx, id, ALIPAY_STATE.failed);
        await closePaymentIn(tx, input.tenantId, row.payment_id);
      });
      throw asApiError(error);
    }
  }
  const row = await alipayOrderById(deps.db, input.tenantId, id);
  if (!row) throw new Error(`order ${id} vanished`);
  return { ...viewOf(row), ...(payUrl ? { payUrl } : {}) };
}

/** One order of the tenant (and of the owner, when one is named). */
export async function getAlipayOrder(db: Queryable, tenantId: string, id: string, ownerId?: string) {
  const row = await alipayOrderById(db, tenantId, id);
  if (!row || (ownerId && row.owner_id !== ownerId)) return undefined;
  return viewOf(row);
}

/** A trade as Alipay reports it, in a notification or a query answer. */
export interface AlipayTrade {
  app_id?: string;
  out_trade_no?: string;
  trade_no?: string;
  trade_status?: string;
  total_amount?: string;
  buyer_id?: string;
  buyer_user_id?: string;
  gmt_payment?: string;
  send_pay_date?: string;
}

export type SettleOutcome =
  | { ok: true; booked: boolean; state: number }
  | { ok: false; reason: "unknown order" | "app mismatch" | "amount mismatch" };

/**
 * Applies what Alipay says of an order, once: the row is locked, app id and amount must be the
 * order's, and TRADE_SUCCESS / TRADE_FINISHED confirm its payment (one recharge; a second report
 * books nothing). A closed trade closes an unpaid order and its payment.
 */
export async function settleAlipayTrade(
  deps: AlipayDeps,
  app: AlipayApp,
  trade: AlipayTrade,
): Promise<SettleOutcome> {
  return deps.db.transaction(async (tx): Promise<SettleOutcome> => {
    const order = await lockAlipayOrderByTradeNo(tx, app.tenantId, String(trade.out_trade_no ?? ""));
    if (!order) return { ok: false, reason: "unknown order" };
    if ((trade.app_id ?? app.appId) !== order.app_id) return { ok: false, reason: "app mismatch" };
    if (fen(trade.total_amount) !== BigInt(order.amount)) return { ok: false, reason: "amount mismatch" };
    if (trade.trade_status === "TRADE_SUCCESS" || trade.trade_status === "TRADE_FINISHED") {
      if (order.state === ALIPAY_STATE.paid) return { ok: true, booked: false, state: order.state };
      const tradeNo = String(trade.trade_no ?? "").slice(0, 64);
      const confirmed = await confirmPaymentIn(
        tx,
        app.tenantId,
        order.payment_id,
        tradeNo,
        bookedBy(order),
        deps.timeZone,
      );
      if (!confirmed)
        throw new Error(`payment ${order.payment_id} of order ${order.out_trade_no} is missing`);
      await setAlipayPaid(tx, order.id, {
        tradeNo,
        buyerId: String(trade.buyer_id ?? trade.buyer_user_id ?? "").slice(0, 32),
        paidTime: fromShanghaiTime(trade.gmt_payment ?? trade.send_pay_date) ?? new Date(),
        rechargeId: confirmed.rechargeId,
      });
      return { ok: true, booked: confirmed.booked, state: ALIPAY_STATE.paid };
    }
    if (trade.trade_status === "TRADE_CLOSED" && order.state === ALIPAY_STATE.unpaid) {
      await setAlipayState(tx, order.id, ALIPAY_STATE.closed);
      await closePaymentIn(tx, app.tenantId, order.payment_id);
      return { ok: true, booked: false, state: ALIPAY_STATE.closed };
    }
    return { ok: true, booked: false, state: order.state };
  });
}

export type NotifyOutcome = { ok: true; booked: boolean } | { ok: false; reason: string };

/**
 * An asynchronous notification for the tenant: RSA2 signature with Alipay's public key over every
 * field but sign and sign_type, the app id the tenant's, then the order's own checks (amount, app).
 * Anything refused is logged and books nothing; Alipay then sends it again, which is harmless.
 */
export async function handleAlipayNotification(
  deps: AlipayDeps,
  tenantId: string,
  params: Params,
): Promise<NotifyOutcome> {
  const refuse = (reason: string): NotifyOutcome => {
    deps.log("alipay notification refused", { tenantId, reason, outTradeNo: params.out_trade_no });
    return { ok: false, reason };
  };
  let app: AlipayApp;
  try {
    app = await loadAlipayApp(deps.db, deps.cipher, tenantId);
  } catch {
    return refuse("no app");
  }
  const check = verifyNotification(params, { appId: app.appId, alipayPublicKey: app.alipayPublicKey });
  if (!check.ok) return refuse(check.reason);
  // Only payment states move money here; a refund's notification (refund_fee) is acknowledged.
  if (params.trade_status === "WAIT_BUYER_PAY") return { ok: true, booked: false };
  const outcome = await settleAlipayTrade(deps, app, params);
  if (!outcome.ok) return refuse(outcome.reason);
  return { ok: true, booked: outcome.booked };
}

/**
 * Asks Alipay about an unpaid order (its notification late or lost) and applies the answer: paid is
 * booked once, an expired one still waiting is closed at Alipay first, one Alipay never saw is
 * closed when expired. Never pays again: only the trade's own state is read.
 */
export async function queryAlipayOrder(
  deps: AlipayDeps,
  tenantId: string,
  id: string,
  now: Date = new Date(),
) {
  const row = await alipayOrderById(deps.db, tenantId, id);
  if (!row) throw notFound("id: 支付宝订单不存在");
  if (row.state !== ALIPAY_STATE.unpaid) return viewOf(row);
  const app = await loadAlipayApp(deps.db, deps.cipher, tenantId);
  let trade: AlipayTrade | undefined;
  try {
    trade = (await callAlipay(app, "alipay.trade.query", { out_trade_no: row.out_trade_no })) as AlipayTrade;
  } catch (error) {
    if (!(error instanceof AlipayCallError)) throw error;
    if (error.subCode !== "ACQ.TRADE_NOT_EXIST") throw asApiError(error);
  }
  const expired = row.expire_time.getTime() <= now.getTime();
  if (trade?.trade_status === "WAIT_BUYER_PAY" && expired) {
    try {
      await callAlipay(app, "alipay.trade.close", { out_trade_no: row.out_trade_no });
      trade = { ...trade, trade_status: "TRADE_CLOSED" };
    } catch (error) {
      if (!(error instanceof AlipayCallError)) throw error;
      // Paid in between: the next query books it.
      deps.log("alipay close refused", { tenantId, outTradeNo: row.out_trade_no, error: error.message });
    }
  }
  if (!trade && expired) trade = { out_trade_no: row.out_trade_no, trade_status: "TRADE_CLOSED" };
  if (trade) {
    const outcome = await settleAlipayTrade(deps, app, {
      ...trade,
      app_id: app.appId,
      out_trade_no: row.out_trade_no,
      total_amount: trade.total_amount ?? yuan(BigInt(row.amount)),
    });
    if (!outcome.ok)
      deps.log("alipay query refused", { tenantId, outTradeNo: row.out_trade_no, reason: outcome.reason });
  }
  return viewOf((await alipayOrderById(deps.db, tenantId, id)) ?? row);
}

export interface AlipayRefundInput {
  tenantId: string;
  id: string;
  amountFen: bigint;
  reason: string;
  actor: Actor;
  /** Money approvals: a refund above the tenant's threshold waits for a second person. */
  approval?: ApprovalGate;
}

/**
 * Refunds (part of) a paid order: the ledger refund is booked first with the refund row (the
 * balance must still hold it), through the tenant's money policy like every refund: above its
 * approval threshold the refund is held (status APPROVAL, nothing booked, its amount reserved on
 * the order) and nothing is asked of Alipay until it is approved (alipay-refund-approval.ts).
 * Otherwise alipay.trade.refund is called at once; a refusal books the money back as a correction.
 */
export async function refundAlipayOrder(deps: AlipayDeps, input: AlipayRefundInput) {
  const app = await loadAlipayApp(deps.db, deps.cipher, input.tenantId);
  if (input.amountFen <= 0n) throw badRequest("amount: 金额必须大于 0");
  const reason = input.reason.trim();
  if (reason.length > 80) throw badRequest("reason: 退款原因最多 80 个字符");
  const outRequestNo = `MLAR${Date.now()}${randomBytes(5).toString("hex").toUpperCase()}`;
  const held = await deps.db.transaction(async (tx) => {
    const order = await lockAlipayOrder(tx, input.tenantId, input.id);
    if (!order) throw notFound("id: 支付宝订单不存在");
    if (order.state !== ALIPAY_STATE.paid) throw badRequest("id: 只有已支付的订单可以退款");
    const left = BigInt(order.amount) - BigInt(order.refund_amount);
    if (input.amountFen > left) throw badRequest(`amount: 退款金额不能超过可退金额 ${fenToYuan(left)} 元`);
    const refundId = await insertAlipayRefund(tx, {
      tenantId: input.tenantId,
      orderId: order.id,
      outRequestNo,
      amount: input.amountFen,
      reason,
      operator: input.actor.name,
      userId: input.actor.userId ?? null,
    });
    const recharge = await takeRecharge(
      within(tx),
      input.tenantId,
      {
        accountId: order.account_id,
        energyType: 1,
        rechargeType: 2,
        paymentMethod: ALIPAY_PAYMENT_METHOD,
        amount: input.amountFen,
        remark: `支付宝退款 ${order.out_trade_no}${reason ? ` ${reason}` : ""}`.slice(0, 255),
        idempotencyKey: `alipayrefund-${outRequestNo}`,
      },
      input.actor,
      deps.timeZone,
      input.approval ? { approval: input.approval } : {},
    );
    const waiting = recharge.state === 3;
    await settleAlipayRefund(tx, refundId, {
      status: waiting ? REFUND_WAITING : "PROCESSING",
      rechargeId: recharge.id,
    });
    return { order, refundId, rechargeId: recharge.id, processInstanceId: recharge.processInstanceId };
  });
  if (held.processInstanceId)
    return {
      outRequestNo,
      status: REFUND_WAITING,
      rechargeId: held.rechargeId,
      processInstanceId: held.processInstanceId,
    };
  const status = await sendAlipayRefund(deps, app, {
    tenantId: input.tenantId,
    refundId: held.refundId,
    outRequestNo,
    rechargeId: held.rechargeId,
    amountFen: input.amountFen,
    reason,
    order: { id: held.order.id, out_trade_no: held.order.out_trade_no, account_id: held.order.account_id },
  });
  return { outRequestNo, status, rechargeId: held.rechargeId };
}

/** A refund whose ledger entry is booked, ready to be asked of Alipay. */
export interface BookedAlipayRefund {
  tenantId: string;
  refundId: string;
  outRequestNo: string;
  rechargeId: string;
  amountFen: bigint;
  reason: string;
  order: { id: string; out_trade_no: string; account_id: string };
}

/**
 * Asks Alipay for a refund already booked in the ledger and records the answer. Unreachable or
 * untrusted: the refund may have happened, so it stays PROCESSING (asking again with the same
 * out_request_no is safe). Refused: the money is booked back as a correction and the refund
 * closed, then the refusal is thrown as the API's error.
 */
export async function sendAlipayRefund(
  deps: AlipayDeps,
  app: AlipayApp,
  refund: BookedAlipayRefund,
): Promise<string> {
  try {
    const answer = await callAlipay(app, "alipay.trade.refund", {
      out_trade_no: refund.order.out_trade_no,
      refund_amount: yuan(refund.amountFen),
      out_request_no: refund.outRequestNo,
      ...(refund.reason ? { refund_reason: refund.reason } : {}),
    });
    // fund_change N on a first request means Alipay moved no money for it yet: still to be settled.
    const status = answer.fund_change === "Y" ? "SUCCESS" : "PROCESSING";
    await settleAlipayRefund(deps.db, refund.refundId, { status, rechargeId: refund.rechargeId });
    return status;
  } catch (error) {
    if (!(error instanceof AlipayCallError)) throw error;
    if (error.code !== "40004") throw asApiError(error);
    await deps.db.transaction(async (tx) => {
      await takeRecharge(
        within(tx),
        refund.tenantId,
        {
          accountId: refund.order.account_id,
          energyType: 1,
          rechargeType: 3,
          paymentMethod: ALIPAY_PAYMENT_METHOD,
          amount: refund.amountFen,
          remark: `支付宝退款被拒,冲回 ${refund.outRequestNo}: ${error.subCode}`.slice(0, 255),
          idempotencyKey: `alipayrefund-back-${refund.outRequestNo}`,
        },
        ALIPAY_ACTOR,
        deps.timeZone,
      );
      await failAlipayRefund(tx, refund.refundId, refund.order.id, refund.amountFen, "CLOSED");
    });
    throw asApiError(error);
  }
}
