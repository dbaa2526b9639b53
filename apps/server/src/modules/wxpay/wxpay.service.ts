import { randomBytes } from "node:crypto";
import { fenToYuan, yuanToFen } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { openAccountOf } from "../money/account.repository.ts";
import type { Actor } from "../money/account-book.ts";
import { insertPayment } from "../money/payment.repository.ts";
import { closePaymentIn, confirmPaymentIn } from "../money/payment.service.ts";
import { type ApprovalGate, takeRecharge, within } from "../money/recharge.service.ts";
import { MAX_AMOUNT_FEN } from "../money/recharge-input.ts";
import {
  failRefund,
  insertOrder,
  insertRefund,
  lockOrder,
  lockOrderByTradeNo,
  type OrderRow,
  orderById,
  setPaid,
  setPrepared,
  setState,
  settleRefund,
  storedMerchant,
  type TradeType,
  unpaidOrders,
  WXPAY_STATE,
} from "./wxpay.repository.ts";
import { asApiError, callWxpay, type Merchant, WxpayCallError } from "./wxpay-client.ts";
import {
  decryptResource,
  type EncryptedResource,
  type JsapiPayParams,
  jsapiPayParams,
  publicKeyPem,
  verifyAnswer,
  type WechatpayHeaders,
} from "./wxpay-protocol.ts";

/** What the WeChat Pay rules need: the database, the key of stored secrets, the tenant clock, a log. */
export interface WxpayDeps {
  db: Db;
  cipher: FieldCipher;
  timeZone: string;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** An order stays payable this long; the query job closes it afterwards. */
export const ORDER_MINUTES = 15;
/** The query job asks about unpaid orders once they are this old (their notification is late or lost). */
export const QUERY_AFTER_SECONDS = 60;
/** Who books what WeChat Pay reports. */
const WXPAY_ACTOR: Actor = { name: "微信支付" };

/**
 * Who a confirmed order's recharge names as its operator: the cashier who took it at the counter
 * (a scanned payment code, a QR code shown there), else the channel itself (an owner's own payment).
 */
const bookedBy = (order: { operator: string; create_user: string | null }): Actor =>
  order.create_user ? { name: order.operator, userId: order.create_user } : WXPAY_ACTOR;
const DEFAULT_API_BASE = "https://api.mch.weixin.qq.com";

/** The tenant's enabled merchant with its secrets opened; 400 naming what is missing. */
export async function loadMerchant(db: Queryable, cipher: FieldCipher, tenantId: string): Promise<Merchant> {
  const row = await storedMerchant(db, tenantId);
  if (!row) throw badRequest("wxconfig: 未配置或未启用微信支付");
  const open = (value: string | null) => (value ? (cipher.decrypt(value) ?? "") : "");
  const merchant: Merchant = {
    tenantId,
    appid: row.app_id,
    mchid: row.mch_id,
    serialNo: row.cert_serial_no ?? "",
    privateKey: open(row.private_key),
    apiV3Key: open(row.api_v3_key),
    platformSerial: row.platform_serial_no ?? "",
    platformPublicKey: row.platform_public_key ?? "",
    apiBase: row.api_base || DEFAULT_API_BASE,
    notifyUrl: row.notify_url ?? "",
    maxAmountFen: MAX_AMOUNT_FEN,
  };
  if (row.max_amount) {
    const limit = yuanToFen(row.max_amount, "maxAmount");
    if (limit > 0n && limit < MAX_AMOUNT_FEN) merchant.maxAmountFen = limit;
  }
  const missing = (
    [
      ["certSerialNo", merchant.serialNo],
      ["privateKey", merchant.privateKey],
      ["apiV3Key", merchant.apiV3Key],
      ["platformSerialNo", merchant.platformSerial],
      ["platformPublicKey", merchant.platformPublicKey],
      ["notifyUrl", merchant.notifyUrl],
    ] as const
  ).find(([, value]) => !value);
  if (missing) throw badRequest(`wxconfig: 微信支付配置缺少 ${missing[0]}`);
  if (Buffer.byteLength(merchant.apiV3Key) !== 32) throw badRequest("wxconfig: APIv3 密钥应为 32 个字符");
  return merchant;
}

/** Whole fen, above zero, within the tenant's limit: checked before any order exists. */
export function checkAmount(amountFen: bigint | number, limitFen: bigint): bigint {
  if (typeof amountFen === "number" && !Number.isSafeInteger(amountFen))
    throw badRequest("amount: 金额须为整分");
  const amount = BigInt(amountFen);
  if (amount <= 0n) throw badRequest("amount: 金额必须大于 0");
  if (amount > limitFen) throw badRequest(`amount: 单笔金额不能超过 ${fenToYuan(limitFen)} 元`);
  return amount;
}

export interface CreateOrderInput {
  tenantId: string;
  /** The owner the order must belong to (the owner's page passes its signed-in owner). */
  ownerId?: string;
  accountId?: string;
  meterId?: string;
  energyType?: 1 | 2;
  amountFen: bigint | number;
  channel: TradeType;
  /** The payer's openid under the merchant's app id: required for JSAPI. */
  openid?: string;
  actor: Actor;
}

export interface OrderView {
  id: string;
  outTradeNo: string;
  tradeType: TradeType;
  amount: string;
  state: number;
  codeUrl: string;
  /** WeChat Pay's transaction number once paid (the receipt prints it); "" before. */
  transactionId: string;
  paidTime: Date | null;
  expireTime: Date;
  rechargeId: string;
  refundAmount: string;
  accountId: string;
  ownerId: string;
}

const viewOf = (row: OrderRow): OrderView => ({
  id: row.id,
  outTradeNo: row.out_trade_no,
  tradeType: row.trade_type,
  amount: fenToYuan(BigInt(row.amount)),
  state: row.state,
  codeUrl: row.code_url,
  transactionId: row.transaction_id,
  paidTime: row.paid_time,
  expireTime: row.expire_time,
  rechargeId: row.recharge_id ?? "",
  refundAmount: fenToYuan(BigInt(row.refund_amount)),
  accountId: row.account_id,
  ownerId: row.owner_id,
});

/** The open, server-kept account an order pays into, which must be the owner's when one is named. */
async function orderAccount(tx: Queryable, input: CreateOrderInput): Promise<string> {
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

/** RFC 3339 in China time, as WeChat Pay writes and reads time_expire. */
const rfc3339 = (at: Date) => `${new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`;

/**
 * The order's two rows in one transaction: an unpaid payment of method 5 (WeChat online; a scanned
 * code is taken at the counter) and its wxpay row, before WeChat Pay is asked anything.
 */
export async function openOrder(
  deps: WxpayDeps,
  merchant: Merchant,
  input: CreateOrderInput,
  outTradeNo: string,
  openid = "",
) {
  const amount = checkAmount(input.amountFen, merchant.maxAmountFen);
  const expireTime = new Date(Date.now() + ORDER_MINUTES * 60_000);
  const description = "预付费充值";
  const id = await deps.db.transaction(async (tx) => {
    const accountId = await orderAccount(tx, input);
    const paymentId = await insertPayment(tx, {
      tenantId: input.tenantId,
      accountId,
      amount,
      paymentMethod: 5,
      channel: input.channel === "micropay" ? "counter" : "online",
      state: 0,
      transactionNo: "",
      remark: `微信支付 ${outTradeNo}`,
      actor: input.actor,
    });
    if (!paymentId) throw notFound("accountId: 账户不存在");
    return insertOrder(tx, {
      tenantId: input.tenantId,
      accountId,
      paymentId,
      outTradeNo,
      tradeType: input.channel,
      amount,
      appid: merchant.appid,
      mchid: merchant.mchid,
      openid,
      expireTime,
      description,
      operator: input.actor.name,
      userId: input.actor.userId ?? null,
    });
  });
  return { id, amount, expireTime, description };
}

/**
 * Takes an order (JSAPI for the owner's page, Native for a QR code at the counter): an unpaid
 * payment of method 5 (WeChat online) and its wxpay row in one transaction, then the order at
 * WeChat Pay. Answers the QR text (Native) or the pay-sign parameters for WeixinJSBridge (JSAPI).
 */
export async function createOrder(
  deps: WxpayDeps,
  input: CreateOrderInput,
): Promise<OrderView & { payParams?: JsapiPayParams }> {
  if (input.channel !== "jsapi" && input.channel !== "native")
    throw badRequest("channel: 只能是 jsapi 或 native");
  const openid = input.openid?.trim() ?? "";
  if (input.channel === "jsapi" && !/^[\w-]{6,128}$/.test(openid))
    throw badRequest("openid: 公众号支付需要付款人的 openid");
  const merchant = await loadMerchant(deps.db, deps.cipher, input.tenantId);
  const outTradeNo = `ML${Date.now()}${randomBytes(5).toString("hex").toUpperCase()}`;
  const { id, amount, expireTime, description } = await openOrder(deps, merchant, input, outTradeNo, openid);
  try {
    const { data } = await callWxpay<{ prepay_id?: string; code_url?: string }>(
      merchant,
      "POST",
      `/v3/pay/transactions/${input.channel}`,
      {
        appid: merchant.appid,
        mchid: merchant.mchid,
        description,
        out_trade_no: outTradeNo,
        time_expire: rfc3339(expireTime),
        notify_url: merchant.notifyUrl,
        amount: { total: Number(amount), currency: "CNY" },
        ...(input.channel === "jsapi" ? { payer: { openid } } : {}),
      },
    );
    await setPrepared(deps.db, id, { prepayId: data.prepay_id ?? "", codeUrl: data.code_url ?? "" });
  } catch (error) {
    if (!(error instanceof WxpayCallError)) throw error;
    await deps.db.transaction(async (tx) => {
      const row = await lockOrder(tx, input.tenantId, id);
      if (row?.state !== WXPAY_STATE.unpaid) return;
      await setState(tx, id, WXPAY_STATE.failed);
      await closePaymentIn(tx, input.tenantId, row.payment_id);
    });
    throw asApiError(error);
  }
  const row = await orderById(deps.db, input.tenantId, id);
  if (!row) throw new Error(`order ${id} vanished`);
  return {
    ...viewOf(row),
    ...(input.channel === "jsapi"
      ? { payParams: jsapiPayParams(merchant.appid, row.prepay_id, merchant.privateKey) }
      : {}),
  };
}

/** One order of the tenant (and of the owner, when one is named), by id or out_trade_no. */
export async function getOrder(
  db: Queryable,
  tenantId: string,
  ref: { id?: string; outTradeNo?: string; ownerId?: string },
): Promise<OrderView | undefined> {
  let id = ref.id;
  if (!id && ref.outTradeNo) {
    const [found] = await db.query<{ id: string }>(
      "select id::text as id from pms_wx_pay where tenant_id = $1 and out_trade_no = $2",
      [tenantId, ref.outTradeNo],
    );
    id = found?.id;
  }
  const row = id ? await orderById(db, tenantId, id) : undefined;
  if (!row || (ref.ownerId && row.owner_id !== ref.ownerId)) return undefined;
  return viewOf(row);
}

/** A transaction as WeChat Pay reports it (notification resource or query answer). */
export interface WxTransaction {
  appid: string;
  mchid: string;
  out_trade_no: string;
  transaction_id?: string;
  trade_state: string;
  success_time?: string;
  payer?: { openid?: string };
  amount?: { total?: number; payer_total?: number };
}

export type SettleOutcome =
  | { ok: true; booked: boolean; state: number }
  | { ok: false; reason: "unknown order" | "merchant mismatch" | "amount mismatch" };

/**
 * Applies what WeChat Pay says of an order, once: the order row is locked, merchant, app and amount
 * must match it, and a SUCCESS confirms its payment (booking one recharge; a second report books
 * nothing). Closed and failed orders are marked so; their payments close.
 */
export async function settleTransaction(
  deps: WxpayDeps,
  merchant: Merchant,
  trade: WxTransaction,
): Promise<SettleOutcome> {
  return deps.db.transaction(async (tx): Promise<SettleOutcome> => {
    const order = await lockOrderByTradeNo(tx, merchant.tenantId, String(trade.out_trade_no ?? ""));
    if (!order) return { ok: false, reason: "unknown order" };
    if (trade.mchid !== merchant.mchid || trade.mchid !== order.mchid || trade.appid !== order.appid)
      return { ok: false, reason: "merchant mismatch" };
    if (trade.amount?.total === undefined || BigInt(trade.amount.total) !== BigInt(order.amount))
      return { ok: false, reason: "amount mismatch" };
    if (trade.trade_state === "SUCCESS" || trade.trade_state === "REFUND") {
      if (order.state === WXPAY_STATE.paid) return { ok: true, booked: false, state: order.state };
      const confirmed = await confirmPaymentIn(
        tx,
        merchant.tenantId,
        order.payment_id,
        String(trade.transaction_id ?? "").slice(0, 64),
        bookedBy(order),
        deps.timeZone,
      );
      if (!confirmed)
        throw new Error(`payment ${order.payment_id} of order ${order.out_trade_no} is missing`);
      const paidTime = trade.success_time ? new Date(trade.success_time) : new Date();
      await setPaid(tx, order.id, {
        transactionId: String(trade.transaction_id ?? "").slice(0, 32),
        paidTime: Number.isNaN(paidTime.getTime()) ? new Date() : paidTime,
        rechargeId: confirmed.rechargeId,
        openid: String(trade.payer?.openid ?? "").slice(0, 128),
      });
      return { ok: true, booked: confirmed.booked, state: WXPAY_STATE.paid };
    }
    const closedAs =
      trade.trade_state === "CLOSED" || trade.trade_state === "REVOKED"
        ? WXPAY_STATE.closed
        : trade.trade_state === "PAYERROR"
          ? WXPAY_STATE.failed
          : undefined;
    if (closedAs !== undefined && order.state === WXPAY_STATE.unpaid) {
      await setState(tx, order.id, closedAs);
      await closePaymentIn(tx, merchant.tenantId, order.payment_id);
      return { ok: true, booked: false, state: closedAs };
    }
    return { ok: true, booked: false, state: order.state };
  });
}

export type NotifyOutcome = { ok: true; booked: boolean } | { ok: false; status: number; reason: string };

/**
 * A payment notification for the tenant: the platform signature, its serial and freshness, then
 * the AEAD resource with the merchant's API v3 key, then the order's own checks. Anything refused
 * is logged and books nothing; WeChat Pay then sends it again, which is harmless.
 */
export async function handleNotification(
  deps: WxpayDeps,
  tenantId: string,
  headers: WechatpayHeaders,
  rawBody: string,
): Promise<NotifyOutcome> {
  const refuse = (status: number, reason: string): NotifyOutcome => {
    deps.log("wxpay notification refused", { tenantId, reason, serial: headers.serial });
    return { ok: false, status, reason };
  };
  let merchant: Merchant;
  try {
    merchant = await loadMerchant(deps.db, deps.cipher, tenantId);
  } catch {
    return refuse(404, "no merchant");
  }
  const check = verifyAnswer(headers, rawBody, {
    serial: merchant.platformSerial,
    publicKey: publicKeyPem(merchant.platformPublicKey),
  });
  if (!check.ok) return refuse(401, `signature: ${check.reason}`);
  let notification: { event_type?: string; resource?: EncryptedResource };
  try {
    notification = JSON.parse(rawBody) as typeof notification;
  } catch {
    return refuse(400, "body is not JSON");
  }
  if (!notification.resource) return refuse(400, "no resource");
  const plain = decryptResource(notification.resource, merchant.apiV3Key);
  if (plain === undefined) return refuse(400, "resource does not decrypt");
  let trade: WxTransaction;
  try {
    trade = JSON.parse(plain) as WxTransaction;
  } catch {
    return refuse(400, "resource is not JSON");
  }
  // Refund results and other events are acknowledged; only payments book money here.
  if (notification.event_type !== "TRANSACTION.SUCCESS") return { ok: true, booked: false };
  if (trade.trade_state !== "SUCCESS") return refuse(400, `trade_state ${trade.trade_state}`);
  const outcome = await settleTransaction(deps, merchant, trade);
  if (!outcome.ok) return refuse(400, outcome.reason);
  return { ok: true, booked: outcome.booked };
}

/**
 * The query job: unpaid orders past a minute are asked about by out_trade_no (their notification is
 * late or lost). Paid ones are booked, closed and failed ones marked, and expired ones closed at
 * WeChat Pay first. Answers how many it booked and closed.
 */
export async function sweepUnpaid(deps: WxpayDeps, now: Date = new Date(), limit = 50) {
  const due = await unpaidOrders(deps.db, QUERY_AFTER_SECONDS, limit);
  const merchants = new Map<string, Merchant | null>();
  let booked = 0;
  let closed = 0;
  for (const order of due) {
    try {
      if (!merchants.has(order.tenant_id))
        merchants.set(
          order.tenant_id,
          await loadMerchant(deps.db, deps.cipher, order.tenant_id).catch(() => null),
        );
      const merchant = merchants.get(order.tenant_id);
      if (!merchant) continue;
      const no = encodeURIComponent(order.out_trade_no);
      let trade: WxTransaction | undefined;
      try {
        trade = (
          await callWxpay<WxTransaction>(
            merchant,
            "GET",
            `/v3/pay/transactions/out-trade-no/${no}?mchid=${merchant.mchid}`,
          )
        ).data;
      } catch (error) {
        // An order WeChat Pay never took (its creation failed on the way) is simply closed when due.
        if (!(error instanceof WxpayCallError && error.code === "ORDER_NOT_EXIST")) throw error;
      }
      const expired = order.expire_time.getTime() <= now.getTime();
      if (trade && (trade.trade_state === "NOTPAY" || trade.trade_state === "USERPAYING") && expired) {
        // A scanned code's order is reversed (撤销), not closed: the payer may be paying it right now.
        if (order.trade_type === "micropay") {
          await callWxpay(merchant, "POST", `/v3/pay/transactions/out-trade-no/${no}/reverse`, {
            appid: merchant.appid,
            mchid: merchant.mchid,
          });
          trade = { ...trade, trade_state: "REVOKED" };
        } else {
          await callWxpay(merchant, "POST", `/v3/pay/transactions/out-trade-no/${no}/close`, {
            mchid: merchant.mchid,
          });
          trade = { ...trade, trade_state: "CLOSED" };
        }
      }
      if (!trade && expired)
        trade = {
          appid: merchant.appid,
          mchid: merchant.mchid,
          out_trade_no: order.out_trade_no,
          trade_state: "CLOSED",
        };
      if (!trade) continue;
      if (trade.amount === undefined) {
        const [row] = await deps.db.query<{ amount: string }>(
          "select amount::text as amount from pms_wx_pay where tenant_id = $1 and out_trade_no = $2",
          [order.tenant_id, order.out_trade_no],
        );
        trade.amount = { total: Number(row?.amount ?? -1) };
      }
      const outcome = await settleTransaction(deps, merchant, trade);
      if (!outcome.ok)
        deps.log("wxpay query refused", {
          tenantId: order.tenant_id,
          outTradeNo: order.out_trade_no,
          reason: outcome.reason,
        });
      else if (outcome.booked) booked++;
      else if (outcome.state === WXPAY_STATE.closed || outcome.state === WXPAY_STATE.failed) closed++;
    } catch (error) {
      deps.log("wxpay query failed", {
        tenantId: order.tenant_id,
        outTradeNo: order.out_trade_no,
        error: String(error),
      });
    }
  }
  return { booked, closed };
}

export interface RefundInput {
  tenantId: string;
  id: string;
  amountFen: bigint;
  reason: string;
  actor: Actor;
  /** Money approvals: a refund above the tenant's threshold waits for a second person. */
  approval?: ApprovalGate;
}

/** A refund whose ledger entry is booked, ready to be asked of WeChat Pay. */
export interface BookedRefund {
  tenantId: string;
  refundId: string;
  outRefundNo: string;
  rechargeId: string;
  amountFen: bigint;
  reason: string;
  order: { id: string; out_trade_no: string; amount: string; account_id: string };
}

/**
 * Refunds (part of) a paid order: the ledger refund is booked first, in one transaction with the
 * refund row (the balance must still hold it), then WeChat Pay's refund API is called. A refusal
 * there books the money back as a correction, so the ledger always tells what happened. A refund
 * above the tenant's approval threshold is kept waiting (status APPROVAL, nothing booked, its
 * amount reserved on the order) and is sent once approved (refund-approval.ts).
 */
export async function refundOrder(deps: WxpayDeps, input: RefundInput) {
  const merchant = await loadMerchant(deps.db, deps.cipher, input.tenantId);
  if (input.amountFen <= 0n) throw badRequest("amount: 金额必须大于 0");
  const reason = input.reason.trim();
  if (reason.length > 80) throw badRequest("reason: 退款原因最多 80 个字符");
  const outRefundNo = `MLR${Date.now()}${randomBytes(5).toString("hex").toUpperCase()}`;
  const held = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.tenantId, input.id);
    if (!order) throw notFound("id: 微信支付订单不存在");
    if (order.state !== WXPAY_STATE.paid) throw badRequest("id: 只有已支付的订单可以退款");
    const left = BigInt(order.amount) - BigInt(order.refund_amount);
    if (input.amountFen > left) throw badRequest(`amount: 退款金额不能超过可退金额 ${fenToYuan(left)} 元`);
    const refundId = await insertRefund(tx, {
      tenantId: input.tenantId,
      wxPayId: order.id,
      outRefundNo,
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
        paymentMethod: 5,
        amount: input.amountFen,
        remark: `微信退款 ${order.out_trade_no}${reason ? ` ${reason}` : ""}`.slice(0, 255),
        idempotencyKey: `wxrefund-${outRefundNo}`,
      },
      input.actor,
      deps.timeZone,
      input.approval ? { approval: input.approval } : {},
    );
    const waiting = recharge.state === 3;
    await settleRefund(tx, refundId, {
      status: waiting ? REFUND_WAITING : "PROCESSING",
      refundId: "",
      rechargeId: recharge.id,
    });
    return { order, refundId, rechargeId: recharge.id, processInstanceId: recharge.processInstanceId };
  });
  if (held.processInstanceId)
    return {
      outRefundNo,
      status: REFUND_WAITING,
      rechargeId: held.rechargeId,
      processInstanceId: held.processInstanceId,
    };
  const sent = await sendRefund(deps, merchant, {
    tenantId: input.tenantId,
    refundId: held.refundId,
    outRefundNo,
    rechargeId: held.rechargeId,
    amountFen: input.amountFen,
    reason,
    order: held.order,
  });
  return { outRefundNo, status: sent, rechargeId: held.rechargeId };
}

/** A refund waiting for its approval: nothing booked, its amount reserved on the order. */
export const REFUND_WAITING = "APPROVAL";

/**
 * Asks WeChat Pay for a refund already booked in the ledger and records the answer (its status).
 * Unreachable or untrusted: the refund may have happened, so it stays PROCESSING for the bill to
 * settle. Refused: the money is booked back as a correction and the refund closed, then the refusal
 * is thrown as the API's error.
 */
export async function sendRefund(deps: WxpayDeps, merchant: Merchant, refund: BookedRefund): Promise<string> {
  try {
    const { data } = await callWxpay<{ refund_id?: string; status?: string }>(
      merchant,
      "POST",
      "/v3/refund/domestic/refunds",
      {
        out_trade_no: refund.order.out_trade_no,
        out_refund_no: refund.outRefundNo,
        ...(refund.reason ? { reason: refund.reason } : {}),
        amount: { refund: Number(refund.amountFen), total: Number(refund.order.amount), currency: "CNY" },
      },
    );
    await settleRefund(deps.db, refund.refundId, {
      status: String(data.status ?? "PROCESSING").slice(0, 16),
      refundId: String(data.refund_id ?? "").slice(0, 32),
      rechargeId: refund.rechargeId,
    });
    return data.status ?? "PROCESSING";
  } catch (error) {
    if (!(error instanceof WxpayCallError)) throw error;
    if (error.status < 400 || error.status >= 500) throw asApiError(error);
    await deps.db.transaction(async (tx) => {
      await takeRecharge(
        within(tx),
        refund.tenantId,
        {
          accountId: refund.order.account_id,
          energyType: 1,
          rechargeType: 3,
          paymentMethod: 5,
          amount: refund.amountFen,
          remark: `微信退款被拒,冲回 ${refund.outRefundNo}: ${error.code}`.slice(0, 255),
          idempotencyKey: `wxrefund-back-${refund.outRefundNo}`,
        },
        WXPAY_ACTOR,
        deps.timeZone,
      );
      await failRefund(tx, refund.refundId, refund.order.id, refund.amountFen, "CLOSED");
    });
    throw asApiError(error);
  }
}
