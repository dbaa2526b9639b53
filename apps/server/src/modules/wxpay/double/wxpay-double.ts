import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type BillTrade, blankTrade, formatTradeBill } from "../wxpay-bill.ts";
import {
  encryptResource,
  type JsapiPayParams,
  signAnswer,
  unixSeconds,
  verifyAuthorization,
  verifyPaySign,
} from "../wxpay-protocol.ts";

/**
 * A local WeChat Pay API v3 for tests and the demo, speaking the real protocol over HTTP: its own
 * platform key pair and serial, merchant requests verified with the merchant's public key, every
 * answer signed, notifications signed and AEAD-encrypted with the merchant's API v3 key. A control
 * API plays the payer's phone (pay, fail) and the network (drop, repeat, delay a notification).
 */
export interface DoubleMerchant {
  mchid: string;
  appid: string;
  publicKey: string;
  apiV3Key: string;
}

type TradeState = "NOTPAY" | "USERPAYING" | "SUCCESS" | "CLOSED" | "REVOKED" | "PAYERROR" | "REFUND";

interface DoubleOrder {
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  notify_url: string;
  trade_type: "JSAPI" | "NATIVE" | "MICROPAY";
  total: number;
  openid: string;
  trade_state: TradeState;
  transaction_id: string;
  success_time: string;
  create_time: string;
  refunded: number;
}

/** A refund as the bill lists it (on the day it was made). */
interface DoubleRefund {
  mchid: string;
  out_trade_no: string;
  refund_id: string;
  out_refund_no: string;
  amount: number;
  time: string;
}

/** What a test plants in the bills: a payment Meterline never saw, another amount, a missing row, a bad hash. */
interface BillPlants {
  extra: { mchid: string; day: string; trade: BillTrade }[];
  amounts: Map<string, number>;
  hidden: Set<string>;
  tamperedHash: Set<string>;
}

export interface Delivery {
  out_trade_no: string;
  status: number;
  body: string;
}

/** What happens to the next notifications: delivered once, dropped, repeated, delayed, or tampered with. */
export interface NotifyPlan {
  mode: "deliver" | "drop";
  /** How many times each notification is sent (a repeat is what WeChat Pay does when unsure). */
  times?: number;
  delayMs?: number;
  /** Change the body after signing (what a forger on the way would send). */
  tamper?: boolean;
  /** Sign with a timestamp this many seconds in the past. */
  ageSeconds?: number;
}

/**
 * Sample WeChat payment codes the demo's double knows (README): the first is paid at once, the
 * second waits for the payer to confirm on the phone, which the double does by itself after a while.
 */
export const SAMPLE_WECHAT_CODES = { paid: "134567890123456789", confirm: "130000000000000009" } as const;

/** WeChat payment codes: 18 digits beginning 10 to 15 (what codepay accepts as payer.auth_code). */
const WECHAT_CODE = /^1[0-5]\d{16}$/;

const iso = (at: Date) => {
  // WeChat Pay writes RFC 3339 with the +08:00 offset.
  const local = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19);
  return `${local}+08:00`;
};

const readBody = (req: IncomingMessage, limit = 64 * 1024): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) req.destroy(new Error("body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

export class WxpayDouble {
  readonly platformSerial = `PUB_KEY_ID_${randomBytes(14).toString("hex").toUpperCase()}`;
  readonly platformPublicKey: string;
  private readonly platformPrivateKey: string;
  private readonly merchants = new Map<string, DoubleMerchant>();
  private readonly orders = new Map<string, DoubleOrder>();
  private readonly refunds: DoubleRefund[] = [];
  private readonly plants: BillPlants = {
    extra: [],
    amounts: new Map(),
    hidden: new Set(),
    tamperedHash: new Set(),
  };
  private plan: NotifyPlan = { mode: "deliver" };
  readonly deliveries: Delivery[] = [];
  /** Payment codes whose payer must confirm on the phone; with a delay, the double confirms by itself. */
  private readonly confirmCodes = new Map<string, number | undefined>();
  /** A payment code is good for one payment. */
  private readonly usedCodes = new Set<string>();
  /** Calls (by name) carried out whose answer is then lost on the way back. */
  private readonly losing = new Set<string>();
  /** Every signed merchant call, in order (tests assert what was asked, e.g. one codepay, a reverse). */
  readonly calls: { method: string; path: string; body: Record<string, unknown> }[] = [];
  private server: Server | undefined;
  private pending = new Set<Promise<unknown>>();
  base = "";

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.platformPrivateKey = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    this.platformPublicKey = publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  addMerchant(merchant: DoubleMerchant) {
    this.merchants.set(merchant.mchid, merchant);
  }

  async listen(port = 0, host = "127.0.0.1"): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, host, resolve));
    const address = this.server.address() as { port: number };
    this.base = `http://${host}:${address.port}`;
    return this.base;
  }

  async close() {
    await Promise.allSettled([...this.pending]);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Sets what happens to the notifications of the next payments (until changed again). */
  notifyPlan(plan: NotifyPlan) {
    this.plan = plan;
  }

  /**
   * A payment code whose payer must enter the password on the phone: codepay answers USERPAYING.
   * With `paysAfterMs` the payer confirms by itself that long after the scan; otherwise a test pays
   * (pay) or never does.
   */
  needsConfirmation(authCode: string, paysAfterMs?: number) {
    this.confirmCodes.set(authCode, paysAfterMs);
  }

  /** The next `codepay` (or `reverse`, `query`) is carried out, but its answer is lost on the way back. */
  loseNextAnswer(call: "codepay" | "reverse" | "query") {
    this.losing.add(call);
  }

  order(mchid: string, outTradeNo: string): Readonly<DoubleOrder> | undefined {
    return this.orders.get(`${mchid}:${outTradeNo}`);
  }

  /** The payer pays the order on the phone; the notification follows the current plan. */
  async pay(mchid: string, outTradeNo: string, openid = "o-native-payer"): Promise<Delivery[]> {
    const order = this.orders.get(`${mchid}:${outTradeNo}`);
    if (!order) throw new Error(`no order ${outTradeNo}`);
    if (order.trade_state !== "NOTPAY" && order.trade_state !== "USERPAYING")
      throw new Error(`order ${outTradeNo} is ${order.trade_state}`);
    order.trade_state = "SUCCESS";
    order.transaction_id = `4200${Date.now()}${randomBytes(4).toString("hex")}`.slice(0, 28);
    order.success_time = iso(new Date());
    if (!order.openid) order.openid = openid;
    // A payment code has no notification: the counter learns the result from its answer or a query.
    if (order.trade_type === "MICROPAY") return [];
    return this.notify(order);
  }

  /** The payment fails on the phone (a declined card): the order stays unpaid for good. */
  fail(mchid: string, outTradeNo: string) {
    const order = this.orders.get(`${mchid}:${outTradeNo}`);
    if (!order) throw new Error(`no order ${outTradeNo}`);
    order.trade_state = "PAYERROR";
  }

  /** Sends the order's notification again, as WeChat Pay does until it is acknowledged. */
  resend(mchid: string, outTradeNo: string): Promise<Delivery[]> {
    const order = this.orders.get(`${mchid}:${outTradeNo}`);
    if (!order) throw new Error(`no order ${outTradeNo}`);
    return this.notify(order);
  }

  /**
   * A notification as this platform would sign it, for a transaction the caller makes up (an order
   * it never had, a different amount): what a test sends to see the merchant refuse it.
   */
  craftNotification(
    apiV3Key: string,
    transaction: Record<string, unknown>,
  ): { headers: Record<string, string>; body: string } {
    const resource = encryptResource(JSON.stringify(transaction), apiV3Key, "transaction");
    const body = JSON.stringify({
      id: randomBytes(16).toString("hex"),
      create_time: iso(new Date()),
      resource_type: "encrypt-resource",
      event_type: "TRANSACTION.SUCCESS",
      summary: "支付成功",
      resource: { ...resource, original_type: "transaction" },
    });
    const headers = signAnswer(body, { serial: this.platformSerial, privateKey: this.platformPrivateKey });
    return { headers: { ...headers, "content-type": "application/json" }, body };
  }

  private async notify(order: DoubleOrder): Promise<Delivery[]> {
    const plan = this.plan;
    if (plan.mode === "drop") return [];
    const merchant = this.merchants.get(order.mchid);
    if (!merchant) return [];
    const send = async () => {
      if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
      const resource = encryptResource(
        JSON.stringify(this.transaction(order)),
        merchant.apiV3Key,
        "transaction",
      );
      const body = JSON.stringify({
        id: randomBytes(16).toString("hex"),
        create_time: iso(new Date()),
        resource_type: "encrypt-resource",
        event_type: "TRANSACTION.SUCCESS",
        summary: "支付成功",
        resource: { ...resource, original_type: "transaction" },
      });
      const headers = signAnswer(
        body,
        { serial: this.platformSerial, privateKey: this.platformPrivateKey },
        { timestamp: unixSeconds() - (plan.ageSeconds ?? 0) },
      );
      const sent = plan.tamper ? body.replace('"summary":"支付成功"', '"summary":"支付成功 "') : body;
      try {
        const res = await fetch(order.notify_url, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: sent,
        });
        const delivery = { out_trade_no: order.out_trade_no, status: res.status, body: await res.text() };
        this.deliveries.push(delivery);
        return delivery;
      } catch (error) {
        const delivery = { out_trade_no: order.out_trade_no, status: 0, body: String(error) };
        this.deliveries.push(delivery);
        return delivery;
      }
    };
    const results: Delivery[] = [];
    const all = (async () => {
      for (let i = 0; i < (plan.times ?? 1); i++) results.push(await send());
      return results;
    })();
    this.pending.add(all);
    void all.finally(() => this.pending.delete(all));
    return all;
  }

  private transaction(order: DoubleOrder) {
    const paid = order.trade_state === "SUCCESS" || order.trade_state === "REFUND";
    return {
      appid: order.appid,
      mchid: order.mchid,
      out_trade_no: order.out_trade_no,
      transaction_id: order.transaction_id,
      trade_type: order.trade_type,
      trade_state: order.trade_state,
      trade_state_desc: {
        NOTPAY: "未支付",
        USERPAYING: "用户支付中",
        SUCCESS: "支付成功",
        CLOSED: "已关闭",
        REVOKED: "已撤销",
        PAYERROR: "支付失败",
        REFUND: "转入退款",
      }[order.trade_state],
      bank_type: "OTHERS",
      attach: "",
      ...(paid ? { success_time: order.success_time } : {}),
      payer: { openid: order.openid },
      amount: {
        total: order.total,
        payer_total: paid ? order.total : 0,
        currency: "CNY",
        payer_currency: "CNY",
      },
    };
  }

  private answer(res: ServerResponse, status: number, payload?: unknown) {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const headers = signAnswer(body, { serial: this.platformSerial, privateKey: this.platformPrivateKey });
    res.writeHead(status, { ...headers, ...(body ? { "content-type": "application/json" } : {}) });
    res.end(body);
  }

  private error(res: ServerResponse, status: number, code: string, message: string) {
    this.answer(res, status, { code, message });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://double");
    const method = req.method ?? "GET";
    const body = await readBody(req);
    if (url.pathname.startsWith("/control/")) return this.control(url, body, res);
    if (url.pathname.startsWith("/cashier")) return this.cashier(method, url, body, res);
    const mchid = /mchid="(\d+)"/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const merchant = this.merchants.get(mchid);
    const signed =
      merchant &&
      verifyAuthorization(
        req.headers.authorization,
        { method, url: req.url ?? "/", body },
        merchant.publicKey,
      );
    if (!merchant || !signed) return this.error(res, 401, "SIGN_ERROR", "签名错误");
    const json = (): Record<string, unknown> => {
      try {
        return JSON.parse(body) as Record<string, unknown>;
      } catch {
        return {};
      }
    };
    const path = url.pathname;
    this.calls.push({ method, path, body: json() });
    if (method === "POST" && path === "/v3/pay/transactions/codepay")
      return this.codePay(merchant, json(), this.lose("codepay", res));
    const reverse = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/reverse$/.exec(path);
    if (method === "POST" && reverse)
      return this.reverse(
        merchant,
        decodeURIComponent(reverse[1] as string),
        json(),
        this.lose("reverse", res),
      );
    const create = /^\/v3\/pay\/transactions\/(jsapi|native)$/.exec(path);
    if (method === "POST" && create)
      return this.createOrder(merchant, create[1] as "jsapi" | "native", json(), res);
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path);
    if (method === "GET" && query) {
      const out = this.lose("query", res);
      const order = this.orders.get(
        `${url.searchParams.get("mchid")}:${decodeURIComponent(query[1] as string)}`,
      );
      if (!order || order.mchid !== mchid) return this.error(out, 404, "ORDER_NOT_EXIST", "订单不存在");
      return this.answer(out, 200, this.transaction(order));
    }
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (method === "POST" && close) {
      const order = this.orders.get(`${mchid}:${decodeURIComponent(close[1] as string)}`);
      if (!order) return this.error(res, 404, "ORDER_NOT_EXIST", "订单不存在");
      if (order.trade_state === "SUCCESS") return this.error(res, 400, "ORDERPAID", "订单已支付");
      order.trade_state = "CLOSED";
      return this.answer(res, 204);
    }
    if (method === "POST" && path === "/v3/refund/domestic/refunds") return this.refund(mchid, json(), res);
    if (method === "GET" && path === "/v3/bill/tradebill") return this.tradeBill(mchid, url, res);
    if (method === "GET" && path === "/v3/billdownload/file") return this.download(mchid, url, res);
    return this.error(res, 404, "NOT_FOUND", "无此接口");
  }

  private createOrder(
    merchant: DoubleMerchant,
    kind: "jsapi" | "native",
    input: Record<string, unknown>,
    res: ServerResponse,
  ) {
    const amount = input.amount as { total?: unknown } | undefined;
    const outTradeNo = String(input.out_trade_no ?? "");
    const openid = String((input.payer as { openid?: unknown } | undefined)?.openid ?? "");
    if (input.mchid !== merchant.mchid) return this.error(res, 400, "MCH_NOT_EXISTS", "商户号不一致");
    if (input.appid !== merchant.appid)
      return this.error(res, 400, "APPID_MCHID_NOT_MATCH", "appid和mch_id不匹配");
    if (!/^[\w*|-]{6,32}$/.test(outTradeNo))
      return this.error(res, 400, "PARAM_ERROR", "out_trade_no 格式错误");
    if (!Number.isInteger(amount?.total) || (amount?.total as number) <= 0)
      return this.error(res, 400, "PARAM_ERROR", "amount.total 必须为正整数");
    if (kind === "jsapi" && !openid) return this.error(res, 400, "PARAM_ERROR", "payer.openid 必填");
    if (typeof input.notify_url !== "string" || !/^https?:\/\//.test(input.notify_url))
      return this.error(res, 400, "PARAM_ERROR", "notify_url 格式错误");
    const key = `${merchant.mchid}:${outTradeNo}`;
    if (this.orders.has(key)) return this.error(res, 400, "INVALID_REQUEST", "201 商户订单号重复");
    const order: DoubleOrder = {
      appid: merchant.appid,
      mchid: merchant.mchid,
      description: String(input.description ?? ""),
      out_trade_no: outTradeNo,
      notify_url: input.notify_url,
      trade_type: kind === "jsapi" ? "JSAPI" : "NATIVE",
      total: amount?.total as number,
      openid,
      trade_state: "NOTPAY",
      transaction_id: "",
      success_time: "",
      create_time: iso(new Date()),
      refunded: 0,
    };
    this.orders.set(key, order);
    const token = orderToken(key);
    return kind === "jsapi"
      ? this.answer(res, 200, { prepay_id: `wx${token}` })
      : this.answer(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${token}` });
  }

  /** The answer of a call planned to be lost: the call is carried out, the connection then cut. */
  private lose(call: string, res: ServerResponse): ServerResponse {
    if (!this.losing.delete(call)) return res;
    const cut = Object.create(res) as ServerResponse;
    cut.writeHead = (() => cut) as never;
    cut.end = (() => {
      res.socket?.destroy();
      return cut;
    }) as never;
    return cut;
  }

  /**
   * APIv3 付款码支付: the payer's code is charged at once (200 and the transaction), or the payer
   * must confirm on the phone (202 USERPAYING; the counter then queries). A code pays once.
   */
  private codePay(merchant: DoubleMerchant, input: Record<string, unknown>, res: ServerResponse) {
    const amount = input.amount as { total?: unknown } | undefined;
    const outTradeNo = String(input.out_trade_no ?? "");
    const authCode = String((input.payer as { auth_code?: unknown } | undefined)?.auth_code ?? "");
    const store = (input.scene_info as { store_info?: { out_id?: unknown } } | undefined)?.store_info;
    if (input.mchid !== merchant.mchid) return this.error(res, 400, "MCH_NOT_EXISTS", "商户号不一致");
    if (input.appid !== merchant.appid)
      return this.error(res, 400, "APPID_MCHID_NOT_MATCH", "appid和mch_id不匹配");
    if (!/^[\w*|-]{6,32}$/.test(outTradeNo))
      return this.error(res, 400, "PARAM_ERROR", "out_trade_no 格式错误");
    if (!Number.isInteger(amount?.total) || (amount?.total as number) <= 0)
      return this.error(res, 400, "PARAM_ERROR", "amount.total 必须为正整数");
    if (!store?.out_id) return this.error(res, 400, "PARAM_ERROR", "scene_info.store_info.out_id 必填");
    if (!WECHAT_CODE.test(authCode))
      return this.error(res, 400, "PARAM_ERROR", "请扫描微信支付付款码(以10-15开头的18位数字)");
    const key = `${merchant.mchid}:${outTradeNo}`;
    if (this.orders.has(key)) return this.error(res, 400, "INVALID_REQUEST", "201 商户订单号重复");
    if (this.usedCodes.has(authCode)) return this.error(res, 403, "TRADE_ERROR", "付款码已使用,请刷新后再试");
    // The README's sample codes pay again and again, so the demo can be tried more than once.
    if (!Object.values(SAMPLE_WECHAT_CODES).includes(authCode as never)) this.usedCodes.add(authCode);
    const order: DoubleOrder = {
      appid: merchant.appid,
      mchid: merchant.mchid,
      description: String(input.description ?? ""),
      out_trade_no: outTradeNo,
      notify_url: "",
      trade_type: "MICROPAY",
      total: amount?.total as number,
      openid: "o-code-payer",
      trade_state: "USERPAYING",
      transaction_id: "",
      success_time: "",
      create_time: iso(new Date()),
      refunded: 0,
    };
    this.orders.set(key, order);
    if (this.confirmCodes.has(authCode)) {
      const after = this.confirmCodes.get(authCode);
      if (after !== undefined) {
        const timer = setTimeout(() => {
          if (order.trade_state === "USERPAYING") void this.pay(order.mchid, outTradeNo);
        }, after);
        timer.unref();
      }
      return this.error(res, 202, "USERPAYING", "需要用户输入支付密码");
    }
    order.trade_state = "SUCCESS";
    order.transaction_id = `4200${Date.now()}${randomBytes(4).toString("hex")}`.slice(0, 28);
    order.success_time = iso(new Date());
    return this.answer(res, 200, this.transaction(order));
  }

  /** 撤销: an unpaid code payment is closed for good; a paid one is paid back to the payer. */
  private reverse(
    merchant: DoubleMerchant,
    outTradeNo: string,
    input: Record<string, unknown>,
    res: ServerResponse,
  ) {
    if (input.mchid !== merchant.mchid || input.appid !== merchant.appid)
      return this.error(res, 400, "PARAM_ERROR", "appid 或 mchid 不正确");
    const order = this.orders.get(`${merchant.mchid}:${outTradeNo}`);
    if (!order) return this.error(res, 404, "ORDER_NOT_EXIST", "订单不存在");
    if (order.trade_type !== "MICROPAY") return this.error(res, 403, "TRADE_ERROR", "非付款码订单不能撤销");
    if (order.trade_state === "SUCCESS") order.refunded = order.total;
    order.trade_state = "REVOKED";
    return this.answer(res, 200, {
      appid: order.appid,
      mchid: order.mchid,
      out_trade_no: order.out_trade_no,
    });
  }

  private refund(mchid: string, input: Record<string, unknown>, res: ServerResponse) {
    const order = this.orders.get(`${mchid}:${String(input.out_trade_no ?? "")}`);
    if (!order) return this.error(res, 404, "RESOURCE_NOT_EXISTS", "订单不存在");
    const amount = input.amount as { refund?: unknown; total?: unknown } | undefined;
    const refund = amount?.refund;
    if (order.trade_state !== "SUCCESS" && order.trade_state !== "REFUND")
      return this.error(res, 403, "TRADE_ERROR", "订单未支付");
    if (!Number.isInteger(refund) || (refund as number) <= 0 || amount?.total !== order.total)
      return this.error(res, 400, "PARAM_ERROR", "amount 不正确");
    if (order.refunded + (refund as number) > order.total)
      return this.error(res, 403, "NOT_ENOUGH", "退款金额超过订单可退金额");
    order.refunded += refund as number;
    order.trade_state = "REFUND";
    const refundId = `5030${Date.now()}${randomBytes(3).toString("hex")}`;
    this.refunds.push({
      mchid,
      out_trade_no: order.out_trade_no,
      refund_id: refundId,
      out_refund_no: String(input.out_refund_no ?? ""),
      amount: refund as number,
      time: iso(new Date()),
    });
    return this.answer(res, 200, {
      refund_id: refundId,
      out_refund_no: input.out_refund_no,
      transaction_id: order.transaction_id,
      out_trade_no: order.out_trade_no,
      channel: "ORIGINAL",
      user_received_account: "支付用户零钱",
      status: "SUCCESS",
      success_time: iso(new Date()),
      create_time: iso(new Date()),
      amount: { total: order.total, refund, payer_total: order.total, payer_refund: refund, currency: "CNY" },
    });
  }

  /**
   * A payment only WeChat Pay has (Meterline never took the order, or never heard of it): it shows in
   * the day's bill (China date `day`, default today) as a SUCCESS trade of `totalFen`.
   */
  plantPayment(mchid: string, outTradeNo: string, totalFen: number, day = iso(new Date()).slice(0, 10)) {
    const merchant = this.merchants.get(mchid);
    this.plants.extra.push({
      mchid,
      day,
      trade: {
        ...blankTrade(),
        tradeTime: `${day} 12:00:00`,
        appid: merchant?.appid ?? "",
        mchid,
        transactionId: `4200${Date.now()}${randomBytes(4).toString("hex")}`.slice(0, 28),
        outTradeNo,
        openid: "o-planted-payer",
        tradeType: "NATIVE",
        settlementFen: BigInt(totalFen),
        orderFen: BigInt(totalFen),
        body: "预付费充值",
      },
    });
  }

  /** The bill lists this order with another amount than was paid (what a mismatch looks like). */
  plantAmount(mchid: string, outTradeNo: string, totalFen: number) {
    this.plants.amounts.set(`${mchid}:${outTradeNo}`, totalFen);
  }

  /** The bill leaves this paid order out (a payment Meterline booked that WeChat Pay does not have). */
  hideFromBill(mchid: string, outTradeNo: string) {
    this.plants.hidden.add(`${mchid}:${outTradeNo}`);
  }

  /** The merchant's bills are served with a hash that does not match the file (or fixed again). */
  tamperBillHash(mchid: string, on = true) {
    if (on) this.plants.tamperedHash.add(mchid);
    else this.plants.tamperedHash.delete(mchid);
  }

  /** The trade bill's file for a merchant's China day: payments by success time, refunds by refund time. */
  billText(mchid: string, day: string): string {
    const paid: BillTrade[] = [...this.orders.values()]
      .filter(
        (o) =>
          o.mchid === mchid &&
          o.success_time.startsWith(day) &&
          (o.trade_state === "SUCCESS" || o.trade_state === "REFUND") &&
          !this.plants.hidden.has(`${mchid}:${o.out_trade_no}`),
      )
      .map((o) => {
        const total = BigInt(this.plants.amounts.get(`${mchid}:${o.out_trade_no}`) ?? o.total);
        return {
          ...blankTrade(),
          tradeTime: o.success_time.slice(0, 19).replace("T", " "),
          appid: o.appid,
          mchid: o.mchid,
          transactionId: o.transaction_id,
          outTradeNo: o.out_trade_no,
          openid: o.openid,
          tradeType: o.trade_type,
          settlementFen: total,
          orderFen: total,
          body: o.description,
          // 0.6% in 1/100000 yuan, rounded as WeChat Pay does to the fen.
          feeMicro: ((total * 6n + 500n) / 1000n) * 1000n,
        };
      });
    const refunded: BillTrade[] = this.refunds
      .filter((r) => r.mchid === mchid && r.time.startsWith(day))
      .map((r) => {
        const order = this.orders.get(`${mchid}:${r.out_trade_no}`);
        return {
          ...blankTrade(),
          tradeTime: r.time.slice(0, 19).replace("T", " "),
          appid: order?.appid ?? "",
          mchid,
          transactionId: order?.transaction_id ?? "",
          outTradeNo: r.out_trade_no,
          openid: order?.openid ?? "",
          tradeType: order?.trade_type ?? "",
          tradeState: "REFUND",
          refundId: r.refund_id,
          outRefundNo: r.out_refund_no,
          refundFen: BigInt(r.amount),
          refundType: "ORIGINAL",
          refundStatus: "SUCCESS",
          body: order?.description ?? "",
          requestedRefundFen: BigInt(r.amount),
        };
      });
    const planted = this.plants.extra.filter((p) => p.mchid === mchid && p.day === day).map((p) => p.trade);
    const trades = [...paid, ...planted, ...refunded].sort((a, b) => a.tradeTime.localeCompare(b.tradeTime));
    return formatTradeBill(trades);
  }

  /** The day's trade bill: where to download it and the file's SHA-1 (the download itself is not signed). */
  private tradeBill(mchid: string, url: URL, res: ServerResponse) {
    const day = url.searchParams.get("bill_date") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return this.error(res, 400, "PARAM_ERROR", "bill_date 格式错误");
    if (url.searchParams.get("bill_type") && url.searchParams.get("bill_type") !== "ALL")
      return this.error(res, 400, "PARAM_ERROR", "bill_type 只支持 ALL");
    const text = this.billText(mchid, day);
    const hashed = this.plants.tamperedHash.has(mchid) ? `${text} ` : text;
    const token = Buffer.from(`${mchid}:${day}`).toString("base64url");
    return this.answer(res, 200, {
      hash_type: "SHA1",
      hash_value: createHash("sha1").update(hashed, "utf8").digest("hex"),
      download_url: `${this.base}/v3/billdownload/file?token=${token}`,
    });
  }

  /** The file, to the merchant whose signed request names it: plain bytes, no signature headers. */
  private download(mchid: string, url: URL, res: ServerResponse) {
    const [owner, day] = Buffer.from(url.searchParams.get("token") ?? "", "base64url")
      .toString("utf8")
      .split(":");
    if (owner !== mchid || !day) return this.error(res, 404, "NO_STATEMENT_EXIST", "账单不存在");
    res.writeHead(200, { "content-type": "application/octet-stream" });
    res.end(this.billText(mchid, day));
  }

  /**
   * The control API the demo's "phone" uses: POST /control/pay|fail|resend {mchid, out_trade_no},
   * /control/plan {…}; and the bill's plants: /control/bill-plant {mchid, out_trade_no, total, day?},
   * /control/bill-amount {mchid, out_trade_no, total}, /control/bill-hide {mchid, out_trade_no}.
   */
  private async control(url: URL, body: string, res: ServerResponse) {
    let input: Record<string, unknown> = {};
    try {
      input = JSON.parse(body || "{}") as Record<string, unknown>;
    } catch {
      // an empty plan
    }
    const mchid = String(input.mchid ?? "");
    const no = String(input.out_trade_no ?? "");
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    try {
      switch (url.pathname) {
        case "/control/pay":
          return reply(200, {
            deliveries: await this.pay(mchid, no, input.openid ? String(input.openid) : undefined),
          });
        case "/control/fail":
          this.fail(mchid, no);
          return reply(200, {});
        case "/control/resend":
          return reply(200, { deliveries: await this.resend(mchid, no) });
        case "/control/jsapi-pay":
          return this.jsapiPay(input, reply);
        case "/control/bill-plant":
          this.plantPayment(mchid, no, Number(input.total), input.day ? String(input.day) : undefined);
          return reply(200, {});
        case "/control/bill-amount":
          this.plantAmount(mchid, no, Number(input.total));
          return reply(200, {});
        case "/control/bill-hide":
          this.hideFromBill(mchid, no);
          return reply(200, {});
        case "/control/plan":
          this.notifyPlan(input as unknown as NotifyPlan);
          return reply(200, {});
        default:
          return reply(404, { message: "no such control" });
      }
    } catch (error) {
      return reply(400, { message: String(error) });
    }
  }

  /** The cashier page of a Native order (what scanning its QR code opens in the simulated WeChat). */
  cashierUrl(mchid: string, outTradeNo: string): string {
    return `${this.base}/cashier?pr=${orderToken(`${mchid}:${outTradeNo}`)}`;
  }

  /** The order a prepay_id or a code_url's pr token names (both are the order's token). */
  private orderByToken(token: string): DoubleOrder | undefined {
    for (const [key, order] of this.orders) if (orderToken(key) === token) return order;
    return undefined;
  }

  /**
   * What the WeChat client does with getBrandWCPayRequest: checks the pay-sign against the
   * merchant's public key (the app id names the merchant), finds the order by its prepay_id and
   * pays it; the notification follows the current plan.
   */
  private async jsapiPay(input: Record<string, unknown>, reply: (status: number, payload: unknown) => void) {
    const params = {
      appId: String(input.appId ?? ""),
      timeStamp: String(input.timeStamp ?? ""),
      nonceStr: String(input.nonceStr ?? ""),
      package: String(input.package ?? ""),
      signType: "RSA",
      paySign: String(input.paySign ?? ""),
    } as JsapiPayParams;
    const merchant = [...this.merchants.values()].find((m) => m.appid === params.appId);
    if (!merchant) return reply(400, { err_msg: "get_brand_wcpay_request:fail", message: "unknown appId" });
    let signed = false;
    try {
      signed = verifyPaySign(params, merchant.publicKey);
    } catch {
      signed = false;
    }
    if (!signed) return reply(401, { err_msg: "get_brand_wcpay_request:fail", message: "paySign" });
    const order = this.orderByToken(params.package.replace(/^prepay_id=wx/, ""));
    if (!order || order.mchid !== merchant.mchid || order.trade_type !== "JSAPI")
      return reply(404, { err_msg: "get_brand_wcpay_request:fail", message: "no such prepay_id" });
    const deliveries = await this.pay(order.mchid, order.out_trade_no);
    return reply(200, { err_msg: "get_brand_wcpay_request:ok", deliveries });
  }

  /**
   * The demo's cashier: what scanning a Native order's QR code shows on the payer's phone, as a
   * page a desktop browser can open (GET /cashier?pr=…) with one button that pays the order.
   */
  private async cashier(method: string, url: URL, body: string, res: ServerResponse) {
    const pr = (method === "POST" ? new URLSearchParams(body).get("pr") : url.searchParams.get("pr")) ?? "";
    const order = /^[0-9a-f]{24}$/.test(pr) ? this.orderByToken(pr) : undefined;
    let note = "";
    if (order && method === "POST" && url.pathname === "/cashier/pay") {
      if (order.trade_state === "NOTPAY") await this.pay(order.mchid, order.out_trade_no);
      note =
        order.trade_state === "SUCCESS"
          ? "支付成功,请回到业主页面查看结果。 Paid: go back to the owner page."
          : "";
    }
    const page = cashierPage(order, pr, note);
    res.writeHead(order ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  }
}

/** An order's token: the prepay_id (after "wx") and the code_url's pr of the order. */
const orderToken = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 24);

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function cashierPage(order: Readonly<DoubleOrder> | undefined, pr: string, note: string): string {
  const body = !order
    ? "<p>订单不存在 / No such order</p>"
    : `<p>${escapeHtml(order.description)}</p>
<p class="amount">¥${(order.total / 100).toFixed(2)}</p>
<p>商户订单号 / Order: ${escapeHtml(order.out_trade_no)}</p>
${
  order.trade_state === "NOTPAY"
    ? `<form method="post" action="cashier/pay"><input type="hidden" name="pr" value="${escapeHtml(pr)}">
<button type="submit">确认支付 / Pay</button></form>`
    : `<p role="status">${escapeHtml(note || `订单状态 / State: ${order.trade_state}`)}</p>`
}`;
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>模拟微信支付 / Simulated WeChat Pay</title>
<style>body{font-family:sans-serif;max-width:420px;margin:2rem auto;padding:0 1rem;text-align:center}
.amount{font-size:2rem;font-weight:bold}button{background:#07c160;color:#fff;border:0;border-radius:6px;
padding:.8rem 2rem;font-size:1.1rem;cursor:pointer}</style></head>
<body><main><h1>模拟微信支付 / Simulated WeChat Pay</h1>${body}</main></body></html>`;
}
