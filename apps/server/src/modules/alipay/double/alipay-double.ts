import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { zipSync } from "fflate";
import {
  ALIPAY_AUTH_CODE,
  errorResponse,
  fen,
  formParams,
  type Params,
  shanghaiTime,
  signNotification,
  signResponse,
  verifyRequest,
  yuan,
} from "../alipay-protocol.ts";

/**
 * A local Alipay open-platform gateway (gateway.do) for tests and the demo, speaking the real
 * formats over HTTP: requests verified with the application's public key, every answer signed as
 * `<method>_response` with this gateway's own key pair, asynchronous notifications form-posted and
 * signed the same way. A control side plays the buyer (scan, pay, confirm a code payment on the
 * phone) and the network (drop, repeat or tamper with a notification).
 */
export interface DoubleApp {
  appId: string;
  /** The application's public key: what the gateway verifies requests with. */
  publicKey: string;
}

type TradeStatus = "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_CLOSED" | "TRADE_FINISHED";

interface DoubleTrade {
  appId: string;
  outTradeNo: string;
  tradeNo: string;
  subject: string;
  /** Fen. */
  total: bigint;
  refunded: bigint;
  status: TradeStatus;
  /** A precreated QR trade exists at Alipay only once a buyer has scanned it. */
  scanned: boolean;
  notifyUrl: string;
  returnUrl: string;
  buyerId: string;
  created: Date;
  paid?: Date;
  product: "FACE_TO_FACE_PAYMENT" | "QUICK_WAP_WAY";
}

interface DoubleRefund {
  appId: string;
  outTradeNo: string;
  outRequestNo: string;
  amount: bigint;
  at: Date;
}

export interface Delivery {
  out_trade_no: string;
  status: number;
  body: string;
}

/** What happens to the next notifications. */
export interface NotifyPlan {
  mode: "deliver" | "drop";
  /** Alipay sends again until it reads `success`; a repeat is what a test of "booked once" needs. */
  times?: number;
  /** Change a field after signing (what a forger on the way would send). */
  tamper?: boolean;
}

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

const ok = (fields: Record<string, unknown> = {}) => ({ code: "10000", msg: "Success", ...fields });
interface Failure {
  code: string;
  msg: string;
  sub_code: string;
  sub_msg: string;
}
const fail = (sub_code: string, sub_msg: string, code = "40004"): Failure => ({
  code,
  msg: code === "40004" ? "Business Failed" : "Invalid Arguments",
  sub_code,
  sub_msg,
});

export class AlipayDouble {
  readonly alipayPublicKey: string;
  private readonly alipayPrivateKey: string;
  private readonly apps = new Map<string, DoubleApp>();
  private readonly trades = new Map<string, DoubleTrade>();
  private readonly refunds: DoubleRefund[] = [];
  /** Payment codes whose owner must still enter a password on the phone (answer 10003). */
  private readonly confirmCodes = new Set<string>();
  private readonly losing = new Set<string>();
  /** Trades the bill leaves out, and trades it lists with another amount (fen): planted differences. */
  private readonly hidden = new Set<string>();
  private readonly billAmounts = new Map<string, bigint>();
  private plan: NotifyPlan = { mode: "deliver" };
  readonly deliveries: Delivery[] = [];
  /** Every method called, in order (tests assert what was asked, e.g. a cancel after a timeout). */
  readonly calls: { method: string; bizContent: Record<string, unknown> }[] = [];
  private server: Server | undefined;
  private pending = new Set<Promise<unknown>>();
  private sequence = 0;
  base = "";

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.alipayPrivateKey = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    this.alipayPublicKey = publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  /** The gateway URL an application configures. */
  get gateway() {
    return `${this.base}/gateway.do`;
  }

  addApp(app: DoubleApp) {
    this.apps.set(app.appId, app);
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

  notifyPlan(plan: NotifyPlan) {
    this.plan = plan;
  }

  /** The next call of `method` is carried out, but its answer is lost on the way back (a cut connection). */
  loseNextAnswer(method: string) {
    this.losing.add(method);
  }

  /** A payment code that, presented at a counter, needs the owner's password on the phone. */
  needsConfirmation(authCode: string) {
    this.confirmCodes.add(authCode);
  }

  trade(appId: string, outTradeNo: string): Readonly<DoubleTrade> | undefined {
    return this.trades.get(`${appId}:${outTradeNo}`);
  }

  /** The buyer scans a QR code or opens the wap page: the trade now exists, waiting for payment. */
  scan(appId: string, outTradeNo: string) {
    const trade = this.mustFind(appId, outTradeNo);
    trade.scanned = true;
  }

  /** The buyer pays (a scanned QR, the wap page, or a code payment confirmed on the phone). */
  async pay(appId: string, outTradeNo: string, buyerId = "2088102177846880"): Promise<Delivery[]> {
    return this.payAt(appId, outTradeNo, new Date(), buyerId);
  }

  /** The buyer pays at `at` (a day whose bill a test reconciles): the notification says so. */
  async payAt(
    appId: string,
    outTradeNo: string,
    at: Date,
    buyerId = "2088102177846880",
  ): Promise<Delivery[]> {
    const trade = this.mustFind(appId, outTradeNo);
    if (trade.status !== "WAIT_BUYER_PAY") throw new Error(`trade ${outTradeNo} is ${trade.status}`);
    trade.scanned = true;
    trade.status = "TRADE_SUCCESS";
    trade.paid = at;
    trade.buyerId = buyerId;
    return this.notify(trade);
  }

  /** A trade paid at `at` that no merchant system asked for (another till, another system): in the bill only. */
  plantPayment(appId: string, outTradeNo: string, amountFen: bigint, at: Date) {
    this.trades.set(`${appId}:${outTradeNo}`, {
      appId,
      outTradeNo,
      tradeNo: this.newTradeNo(at),
      subject: "其他收款",
      total: amountFen,
      refunded: 0n,
      status: "TRADE_SUCCESS",
      scanned: true,
      notifyUrl: "",
      returnUrl: "",
      buyerId: "2088102177846880",
      created: at,
      paid: at,
      product: "FACE_TO_FACE_PAYMENT",
    });
  }

  /** The bill leaves this trade out (a bill that lost a line). */
  hideFromBill(appId: string, outTradeNo: string) {
    this.hidden.add(`${appId}:${outTradeNo}`);
  }

  /** The bill lists this trade with another amount received (fen). */
  plantAmount(appId: string, outTradeNo: string, amountFen: bigint) {
    this.billAmounts.set(`${appId}:${outTradeNo}`, amountFen);
  }

  /** Sends the trade's notification again, as Alipay does until it reads `success`. */
  resend(appId: string, outTradeNo: string): Promise<Delivery[]> {
    return this.notify(this.mustFind(appId, outTradeNo));
  }

  /** A notification this gateway signs for fields the caller makes up (another amount, another app). */
  craftNotification(fields: Record<string, string>): Record<string, string> {
    return signNotification(fields, this.alipayPrivateKey);
  }

  /** The notification fields of a trade, as Alipay posts them. */
  notificationOf(trade: DoubleTrade): Record<string, string> {
    const fields: Record<string, string> = {
      notify_time: shanghaiTime(),
      notify_type: "trade_status_sync",
      notify_id: randomBytes(16).toString("hex"),
      charset: "utf-8",
      version: "1.0",
      app_id: trade.appId,
      auth_app_id: trade.appId,
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: trade.status,
      total_amount: yuan(trade.total),
      receipt_amount: yuan(trade.total),
      buyer_pay_amount: yuan(trade.total),
      buyer_id: trade.buyerId,
      subject: trade.subject,
      gmt_create: shanghaiTime(trade.created),
    };
    if (trade.paid) fields.gmt_payment = shanghaiTime(trade.paid);
    if (trade.refunded > 0n) fields.refund_fee = yuan(trade.refunded);
    return fields;
  }

  private mustFind(appId: string, outTradeNo: string) {
    const trade = this.trades.get(`${appId}:${outTradeNo}`);
    if (!trade) throw new Error(`no trade ${outTradeNo}`);
    return trade;
  }

  private async notify(trade: DoubleTrade): Promise<Delivery[]> {
    const plan = this.plan;
    if (plan.mode === "drop" || !trade.notifyUrl) return [];
    const send = async (): Promise<Delivery> => {
      const signed = signNotification(this.notificationOf(trade), this.alipayPrivateKey);
      if (plan.tamper) signed.total_amount = yuan(trade.total + 100n);
      try {
        const res = await fetch(trade.notifyUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
          body: new URLSearchParams(signed).toString(),
        });
        const delivery = { out_trade_no: trade.outTradeNo, status: res.status, body: await res.text() };
        this.deliveries.push(delivery);
        return delivery;
      } catch (error) {
        const delivery = { out_trade_no: trade.outTradeNo, status: 0, body: String(error) };
        this.deliveries.push(delivery);
        return delivery;
      }
    };
    const all = (async () => {
      const results: Delivery[] = [];
      for (let i = 0; i < (plan.times ?? 1); i++) results.push(await send());
      return results;
    })();
    this.pending.add(all);
    void all.finally(() => this.pending.delete(all));
    return all;
  }

  private newTradeNo(at = new Date()) {
    this.sequence += 1;
    const day = shanghaiTime(at).slice(0, 10).replaceAll("-", "");
    return `${day}22001${String(this.sequence).padStart(6, "0")}${randomBytes(3).toString("hex")}`.slice(
      0,
      28,
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://double");
    const body = await readBody(req);
    if (url.pathname === "/cashier/pay") return this.cashierPay(url, res);
    if (url.pathname.startsWith("/bill/")) return this.billFile(url, res);
    if (url.pathname !== "/gateway.do") {
      res.writeHead(404);
      return res.end();
    }
    // Parameters come in the query (page calls, charset), the form body, or both.
    const params: Params = { ...Object.fromEntries(url.searchParams), ...formParams(body) };
    const method = params.method ?? "";
    const app = this.apps.get(params.app_id ?? "");
    const reply = (answer: object) => {
      if (this.losing.delete(method)) {
        res.socket?.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json;charset=utf-8" });
      res.end(signResponse(method, answer, this.alipayPrivateKey));
    };
    if (!app) {
      res.writeHead(200, { "content-type": "application/json;charset=utf-8" });
      return res.end(errorResponse(fail("isv.invalid-app-id", "无效的AppID参数", "40002")));
    }
    const check = verifyRequest(params, { appId: app.appId, publicKey: app.publicKey });
    if (!check.ok) return reply(fail(check.code, `验签出错 (${check.reason})`, "40002"));
    const biz = check.bizContent;
    this.calls.push({ method, bizContent: biz });
    const notifyUrl = params.notify_url ?? "";
    switch (method) {
      case "alipay.trade.precreate":
        return reply(this.create(app, biz, notifyUrl, "", "FACE_TO_FACE_PAYMENT"));
      case "alipay.trade.wap.pay":
        return this.wapPage(app, biz, notifyUrl, params.return_url ?? "", res);
      case "alipay.trade.query":
        return reply(this.query(app, biz));
      case "alipay.trade.close":
        return reply(this.closeTrade(app, biz));
      case "alipay.trade.refund":
        return reply(this.refund(app, biz));
      case "alipay.trade.pay":
        return reply(await this.codePay(app, biz, notifyUrl));
      case "alipay.trade.cancel":
        return reply(this.cancel(app, biz));
      case "alipay.data.dataservice.bill.downloadurl.query":
        return reply(this.billUrl(app, biz));
      default:
        return reply(fail("isv.invalid-method", "不存在的方法名", "40002"));
    }
  }

  /** Checks what every trade-making call carries; an error answer, or the new trade. */
  private newTrade(
    app: DoubleApp,
    biz: Record<string, unknown>,
    notifyUrl: string,
    returnUrl: string,
    product: DoubleTrade["product"],
  ): DoubleTrade | Failure {
    const outTradeNo = String(biz.out_trade_no ?? "");
    const total = fen(
      typeof biz.total_amount === "string" ? biz.total_amount : String(biz.total_amount ?? ""),
    );
    if (!/^[\w-]{1,64}$/.test(outTradeNo)) return fail("isv.missing-out-trade-no", "缺少商户订单号", "40002");
    if (total === undefined || total <= 0n)
      return fail("isv.invalid-total-amount", "订单金额格式错误", "40002");
    if (!biz.subject) return fail("isv.missing-subject", "缺少订单标题", "40002");
    const existing = this.trades.get(`${app.appId}:${outTradeNo}`);
    if (existing && existing.status !== "WAIT_BUYER_PAY")
      return fail("ACQ.TRADE_HAS_SUCCESS", "交易已被支付");
    if (existing && existing.total !== total) return fail("ACQ.CONTEXT_INCONSISTENT", "交易信息被篡改");
    if (existing) return existing;
    const trade: DoubleTrade = {
      appId: app.appId,
      outTradeNo,
      tradeNo: this.newTradeNo(),
      subject: String(biz.subject),
      total,
      refunded: 0n,
      status: "WAIT_BUYER_PAY",
      scanned: false,
      notifyUrl,
      returnUrl,
      buyerId: "",
      created: new Date(),
      product,
    };
    this.trades.set(`${app.appId}:${outTradeNo}`, trade);
    return trade;
  }

  private create(
    app: DoubleApp,
    biz: Record<string, unknown>,
    notifyUrl: string,
    returnUrl: string,
    product: DoubleTrade["product"],
  ) {
    const trade = this.newTrade(app, biz, notifyUrl, returnUrl, product);
    if ("sub_code" in trade) return trade;
    const token = Buffer.from(`${app.appId}:${trade.outTradeNo}`).toString("base64url");
    return ok({ out_trade_no: trade.outTradeNo, qr_code: `${this.base}/cashier/pay?t=${token}` });
  }

  /** The phone browser's cashier page: what `alipay.trade.wap.pay` opens; its button pays. */
  private wapPage(
    app: DoubleApp,
    biz: Record<string, unknown>,
    notifyUrl: string,
    returnUrl: string,
    res: ServerResponse,
  ) {
    const trade = this.newTrade(app, biz, notifyUrl, returnUrl, "QUICK_WAP_WAY");
    if ("sub_code" in trade) {
      res.writeHead(400, { "content-type": "text/html;charset=utf-8" });
      return res.end(`<p>${trade.sub_code} ${escapeHtml(trade.sub_msg)}</p>`);
    }
    trade.scanned = true;
    const token = Buffer.from(`${app.appId}:${trade.outTradeNo}`).toString("base64url");
    res.writeHead(200, { "content-type": "text/html;charset=utf-8" });
    res.end(`<!doctype html><meta charset="utf-8"><title>支付宝 (本机模拟)</title>
<h1>${escapeHtml(trade.subject)}</h1><p>¥${yuan(trade.total)}</p>
<form method="post" action="/cashier/pay?t=${token}"><button type="submit">确认付款</button></form>`);
  }

  /** The double's cashier pays a trade (QR scanned or wap page), then goes back to the merchant. */
  private async cashierPay(url: URL, res: ServerResponse) {
    const [appId, outTradeNo] = Buffer.from(url.searchParams.get("t") ?? "", "base64url")
      .toString("utf8")
      .split(":");
    const trade = this.trades.get(`${appId}:${outTradeNo}`);
    if (trade?.status !== "WAIT_BUYER_PAY") {
      res.writeHead(404, { "content-type": "text/plain;charset=utf-8" });
      return res.end("交易不存在或已结束");
    }
    await this.pay(trade.appId, trade.outTradeNo);
    if (trade.returnUrl) {
      const back = new URL(trade.returnUrl);
      back.searchParams.set("out_trade_no", trade.outTradeNo);
      back.searchParams.set("trade_no", trade.tradeNo);
      back.searchParams.set("total_amount", yuan(trade.total));
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    res.writeHead(200, { "content-type": "text/plain;charset=utf-8" });
    res.end("支付成功");
  }

  private find(app: DoubleApp, biz: Record<string, unknown>) {
    return this.trades.get(`${app.appId}:${String(biz.out_trade_no ?? "")}`);
  }

  private query(app: DoubleApp, biz: Record<string, unknown>) {
    const trade = this.find(app, biz);
    if (!trade?.scanned) return fail("ACQ.TRADE_NOT_EXIST", "交易不存在");
    return ok({
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_logon_id: trade.buyerId ? "159****5620" : "",
      trade_status: trade.status,
      total_amount: yuan(trade.total),
      receipt_amount: trade.paid ? yuan(trade.total) : "0.00",
      buyer_user_id: trade.buyerId,
      ...(trade.paid ? { send_pay_date: shanghaiTime(trade.paid) } : {}),
    });
  }

  private closeTrade(app: DoubleApp, biz: Record<string, unknown>) {
    const trade = this.find(app, biz);
    if (!trade?.scanned) return fail("ACQ.TRADE_NOT_EXIST", "交易不存在");
    if (trade.status !== "WAIT_BUYER_PAY") return fail("ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
    trade.status = "TRADE_CLOSED";
    return ok({ trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo });
  }

  private refund(app: DoubleApp, biz: Record<string, unknown>) {
    const trade = this.find(app, biz);
    if (!trade?.scanned) return fail("ACQ.TRADE_NOT_EXIST", "交易不存在");
    if (trade.status !== "TRADE_SUCCESS") return fail("ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
    const amount = fen(String(biz.refund_amount ?? ""));
    if (amount === undefined || amount <= 0n)
      return fail("isv.invalid-refund-amount", "退款金额格式错误", "40002");
    const outRequestNo = String(biz.out_request_no ?? trade.outTradeNo);
    const done = this.refunds.find(
      (r) => r.appId === app.appId && r.outTradeNo === trade.outTradeNo && r.outRequestNo === outRequestNo,
    );
    const answer = (fundChange: "Y" | "N") =>
      ok({
        trade_no: trade.tradeNo,
        out_trade_no: trade.outTradeNo,
        buyer_logon_id: "159****5620",
        fund_change: fundChange,
        refund_fee: yuan(trade.refunded),
        gmt_refund_pay: shanghaiTime(),
      });
    // A repeated request number is the same refund asked again: answered, not paid twice.
    if (done)
      return done.amount === amount
        ? answer("N")
        : fail("ACQ.REQUEST_AMOUNT_EXCEED", "请求金额与原请求不一致");
    if (trade.refunded + amount > trade.total) return fail("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限");
    trade.refunded += amount;
    this.refunds.push({
      appId: app.appId,
      outTradeNo: trade.outTradeNo,
      outRequestNo,
      amount,
      at: new Date(),
    });
    return answer("Y");
  }

  /** Face-to-face code payment: paid at once, or 10003 while the owner confirms on the phone. */
  private async codePay(app: DoubleApp, biz: Record<string, unknown>, notifyUrl: string) {
    const authCode = String(biz.auth_code ?? "");
    if (biz.scene !== "bar_code") return fail("isv.invalid-scene", "场景参数错误", "40002");
    if (!ALIPAY_AUTH_CODE.test(authCode))
      return fail("ACQ.PAYMENT_AUTH_CODE_INVALID", "支付失败，获取顾客账户信息失败");
    const trade = this.newTrade(app, biz, notifyUrl, "", "FACE_TO_FACE_PAYMENT");
    if ("sub_code" in trade) return trade;
    trade.scanned = true;
    const fields = { trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo, buyer_logon_id: "159****5620" };
    if (this.confirmCodes.has(authCode))
      return { code: "10003", msg: "order success pay inprocess", ...fields };
    trade.status = "TRADE_SUCCESS";
    trade.paid = new Date();
    trade.buyerId = "2088102177846880";
    // Alipay notifies a code payment too when a notify_url was given; the answer already says paid.
    void this.notify(trade);
    return ok({
      ...fields,
      total_amount: yuan(trade.total),
      receipt_amount: yuan(trade.total),
      buyer_pay_amount: yuan(trade.total),
      gmt_payment: shanghaiTime(trade.paid),
      buyer_user_id: trade.buyerId,
    });
  }

  /** Cancels a code payment: an unpaid trade is closed, a paid one refunded in full. */
  private cancel(app: DoubleApp, biz: Record<string, unknown>) {
    const trade = this.find(app, biz);
    if (!trade) return ok({ out_trade_no: String(biz.out_trade_no ?? ""), retry_flag: "N", action: "close" });
    let action = "close";
    if (trade.status === "TRADE_SUCCESS") {
      action = "refund";
      this.refunds.push({
        appId: app.appId,
        outTradeNo: trade.outTradeNo,
        outRequestNo: `cancel-${trade.outTradeNo}`,
        amount: trade.total - trade.refunded,
        at: new Date(),
      });
      trade.refunded = trade.total;
    }
    trade.status = "TRADE_CLOSED";
    return ok({ trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo, retry_flag: "N", action });
  }

  private billUrl(app: DoubleApp, biz: Record<string, unknown>) {
    const day = String(biz.bill_date ?? "");
    if (biz.bill_type !== "trade") return fail("isv.invalid-bill-type", "账单类型错误", "40002");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return fail("isv.invalid-bill-date", "账单日期格式错误", "40002");
    if (day >= shanghaiTime().slice(0, 10)) return fail("isp.bill_not_exist", "账单不存在");
    return ok({ bill_download_url: `${this.base}/bill/${app.appId}/${day}.csv.zip` });
  }

  /** The day's trade bill as Alipay serves it: a zip of the detail and summary CSV files. */
  private billFile(url: URL, res: ServerResponse) {
    const match = /^\/bill\/(\d+)\/(\d{4}-\d{2}-\d{2})\.csv\.zip$/.exec(url.pathname);
    if (!match) {
      res.writeHead(404);
      return res.end();
    }
    const [, appId, day] = match as unknown as [string, string, string];
    const stamp = day.replaceAll("-", "");
    const detail = billDetail(this.billRows(appId, day), day);
    res.writeHead(200, { "content-type": "application/zip" });
    res.end(
      Buffer.from(
        zipSync({
          [`${appId}_${stamp}_业务明细.csv`]: Buffer.from(detail, "utf8"),
          [`${appId}_${stamp}_业务明细(汇总).csv`]: Buffer.from(
            `#支付宝业务汇总查询\n#账号：[${appId}]\n`,
            "utf8",
          ),
        }),
      ),
    );
  }

  private billRows(appId: string, day: string): BillRow[] {
    const rows: BillRow[] = [];
    for (const trade of this.trades.values()) {
      if (trade.appId !== appId || !trade.paid || shanghaiTime(trade.paid).slice(0, 10) !== day) continue;
      const key = `${appId}:${trade.outTradeNo}`;
      if (this.hidden.has(key)) continue;
      const amount = this.billAmounts.get(key) ?? trade.total;
      rows.push({ trade, kind: "交易", amount, at: trade.paid, requestNo: "" });
    }
    for (const refund of this.refunds) {
      const trade = this.trades.get(`${refund.appId}:${refund.outTradeNo}`);
      if (refund.appId !== appId || !trade || shanghaiTime(refund.at).slice(0, 10) !== day) continue;
      rows.push({
        trade,
        kind: "退款",
        amount: -refund.amount,
        at: refund.at,
        requestNo: refund.outRequestNo,
      });
    }
    return rows;
  }
}

interface BillRow {
  trade: DoubleTrade;
  kind: "交易" | "退款";
  amount: bigint;
  at: Date;
  requestNo: string;
}

const BILL_COLUMNS = [
  "支付宝交易号",
  "商户订单号",
  "业务类型",
  "商品名称",
  "创建时间",
  "完成时间",
  "门店编号",
  "门店名称",
  "操作员",
  "终端号",
  "对方账户",
  "订单金额（元）",
  "商家实收（元）",
  "支付宝红包（元）",
  "集分宝（元）",
  "支付宝优惠（元）",
  "商家优惠（元）",
  "券核销金额（元）",
  "券名称",
  "商家红包消费金额（元）",
  "卡消费金额（元）",
  "退款批次号/请求号",
  "服务费（元）",
  "分润（元）",
  "备注",
];

/**
 * The detail file's text: comment lines, the header, one line per trade or refund, the totals.
 * Alipay writes it in GBK; the double writes UTF-8 because Node has no GBK encoder, so a reader
 * of real bills must decode GBK (TextDecoder("gbk")) and may accept UTF-8 for the double.
 */
function billDetail(rows: BillRow[], day: string): string {
  const lines = [
    "#支付宝业务明细查询",
    `#起始日期：[${day} 00:00:00]   终止日期：[${day} 23:59:59]`,
    "#-----------------------------------------业务明细列表----------------------------------------",
    BILL_COLUMNS.join(","),
  ];
  for (const row of rows) {
    const cells = new Array<string>(BILL_COLUMNS.length).fill("");
    cells[0] = `${row.trade.tradeNo}\t`;
    cells[1] = `${row.trade.outTradeNo}\t`;
    cells[2] = row.kind;
    cells[3] = row.trade.subject;
    cells[4] = shanghaiTime(row.trade.created);
    cells[5] = shanghaiTime(row.at);
    cells[10] = "159****5620";
    cells[11] = yuan(row.kind === "交易" ? row.amount : 0n);
    cells[12] = yuan(row.amount);
    cells[21] = row.requestNo;
    cells[22] = "0.00";
    lines.push(cells.join(","));
  }
  const total = rows.reduce((sum, row) => sum + row.amount, 0n);
  lines.push(
    "#-----------------------------------------业务明细列表结束------------------------------------",
  );
  lines.push(`#交易合计：${rows.filter((r) => r.kind === "交易").length}笔，商家实收共${yuan(total)}元`);
  lines.push(`#导出时间：[${shanghaiTime()}]`);
  return lines.join("\r\n");
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
