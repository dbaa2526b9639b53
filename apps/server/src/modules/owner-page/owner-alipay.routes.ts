import { yuanToFen } from "@meterline/billing";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { ALIPAY_STATE } from "../alipay/alipay.repository.ts";
import {
  type AlipayDeps,
  createAlipayOrder,
  getAlipayOrder,
  queryAlipayOrder,
} from "../alipay/alipay.service.ts";
import { loadAlipayApp } from "../alipay/alipay-app.ts";
import { amountOf } from "../money/recharge-input.ts";
import { demoAlipayLink } from "./owner-alipay-demo.ts";
import { accountAfterOrder, payOptions } from "./owner-pay.ts";
import { ownAccount, receiptOf } from "./owner-reads.ts";
import { boundOwner, sessionOf } from "./owner-session.ts";
import { OWNER_BASE } from "./owner-sign-in.routes.ts";

/** How the owner's page pays with Alipay: the phone browser's cashier (wap) or a QR code (qr). */
const CHANNELS = new Set(["wap", "qr"]);

/** The order's id when the address names it by id, else its out_trade_no as Alipay sends it back. */
async function orderIdOf(db: Db, tenantId: string, key: string): Promise<string | undefined> {
  if (/^\d{1,19}$/.test(key)) return key;
  if (!/^[\w-]{1,64}$/.test(key)) return undefined;
  const [row] = await db.query<{ id: string }>(
    "select id::text as id from pms_alipay_pay where tenant_id = $1 and out_trade_no = $2",
    [tenantId, key],
  );
  return row?.id;
}

/**
 * The owner's own Alipay recharges (issue 39): the form's options, a wap order (phone browser and
 * the Alipay app: the signed URL of Alipay's cashier, which sends the owner back to `returnUrl`)
 * or a QR order (a desktop browser) for one of the owner's accounts, and following it to its
 * booking and the supply's restore. Tenant and owner are always the session's.
 */
/**
 * Whether `address` is this site's own owner page, where Alipay's cashier may send the owner back:
 * anything else would let an order's link carry the owner to a site of someone's choosing.
 */
function ownPageAddress(address: string, host: string): boolean {
  if (address.length > 512) return false;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    url.host.toLowerCase() === host.toLowerCase() &&
    !url.username &&
    !url.password &&
    url.pathname.startsWith("/h5/")
  );
}

export async function ownerAlipayRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string },
) {
  const { db, timeZone } = opts;
  const deps: AlipayDeps = {
    db,
    cipher: opts.cipher,
    timeZone,
    log: (message, fields) => app.log.warn(fields, message),
  };
  const config = { public: true } as const;
  const tags = ["ownerPage"];

  app.get(
    `${OWNER_BASE}/alipay/options`,
    { config, schema: { tags, summary: "Whether Alipay is on, its limit and preset amounts" } },
    async (request) => {
      const session = await sessionOf(db, request);
      boundOwner(session);
      const limit = await loadAlipayApp(db, opts.cipher, session.tenantId).then(
        (a) => a.maxAmountFen,
        () => undefined,
      );
      return ok(payOptions(limit));
    },
  );

  app.post(
    `${OWNER_BASE}/alipay/order`,
    {
      config,
      schema: {
        tags,
        summary: "An Alipay order for one of the owner's accounts (yuan): the URL to open or the QR code",
      },
    },
    async (request) => {
      const session = await sessionOf(db, request);
      const ownerId = boundOwner(session);
      const params = readParams(request);
      const accountId = optionalId(params, "accountId");
      if (!accountId) throw badRequest("accountId: 请选择账户");
      // Another owner's account is not found, whatever else is wrong with the request.
      await ownAccount(db, session.tenantId, ownerId, accountId);
      const channel = optionalString(params, "channel") ?? "wap";
      if (!CHANNELS.has(channel)) throw badRequest("channel: 只能是 wap 或 qr");
      const returnUrl = optionalString(params, "returnUrl") ?? "";
      if (returnUrl && !ownPageAddress(returnUrl, request.host))
        throw badRequest("returnUrl: 应为本站业主页的地址 (http(s)://本站/h5/…)");
      const order = await createAlipayOrder(deps, {
        tenantId: session.tenantId,
        ownerId,
        accountId,
        amountFen: amountOf(params),
        channel: channel as "wap" | "qr",
        ...(returnUrl ? { returnUrl } : {}),
        actor: { name: "业主" },
      });
      return ok({
        id: order.id,
        outTradeNo: order.outTradeNo,
        tradeType: order.tradeType,
        amount: order.amount,
        payUrl: demoAlipayLink(order.payUrl ?? ""),
        qrCode: order.qrCode,
      });
    },
  );

  app.get<{ Params: { id: string } }>(
    `${OWNER_BASE}/alipay/order/:id`,
    {
      config,
      schema: {
        tags,
        summary:
          "One of the owner's Alipay orders (by id or out_trade_no): state, receipt, balance, restore; query=1 asks Alipay when unpaid",
      },
    },
    async (request) => {
      const session = await sessionOf(db, request);
      const ownerId = boundOwner(session);
      const { tenantId } = session;
      const id = await orderIdOf(db, tenantId, request.params.id);
      let order = id ? await getAlipayOrder(db, tenantId, id, ownerId) : undefined;
      if (!order) throw notFound("id: 订单不存在");
      // Back from Alipay's cashier before its notification: the owner's page asks Alipay itself.
      if (order.state === ALIPAY_STATE.unpaid && optionalString(readParams(request), "query") === "1") {
        order = await queryAlipayOrder(deps, tenantId, order.id).catch((error: unknown) => {
          app.log.warn(
            { err: error, outTradeNo: order?.outTradeNo },
            "alipay query from the owner page failed",
          );
          return order!;
        });
      }
      const booked = order.state === ALIPAY_STATE.paid && order.rechargeId !== "";
      const account = await accountAfterOrder(
        db,
        { tenantId, ownerId, accountId: order.accountId },
        { table: "pms_alipay_pay", outTradeNo: order.outTradeNo },
        timeZone,
      );
      const unpaid = order.state === ALIPAY_STATE.unpaid;
      return ok({
        id: order.id,
        outTradeNo: order.outTradeNo,
        tradeType: order.tradeType,
        amountFen: yuanToFen(order.amount, "amount").toString(),
        amount: order.amount,
        state: order.state,
        tradeNo: order.tradeNo,
        expireTime: order.expireTime,
        paidTime: order.paidTime,
        booked,
        accountId: order.accountId,
        ...account,
        receipt: booked ? await receiptOf(db, tenantId, ownerId, order.rechargeId, timeZone) : null,
        codeUrl: unpaid ? order.qrCode : "",
        // Only a demo double's QR code has a cashier this server passes on.
        demoPayUrl:
          unpaid && demoAlipayLink(order.qrCode) !== order.qrCode ? demoAlipayLink(order.qrCode) : "",
      });
    },
  );
}
