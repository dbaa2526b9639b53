import type { FastifyInstance, FastifyReply } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { amountOf } from "../money/recharge-input.ts";
import { demoDouble } from "../wxpay/demo-cashier.ts";
import { createOrder, loadMerchant, type WxpayDeps } from "../wxpay/wxpay.service.ts";
import { DEMO_CASHIER_PATH, demoLinkOf, followOrder, payOptions } from "./owner-pay.ts";
import { ownAccount } from "./owner-reads.ts";
import { boundOwner, sessionOf } from "./owner-session.ts";
import { OWNER_BASE } from "./owner-sign-in.routes.ts";

/**
 * The owner's own WeChat Pay recharges (issue 20): the form's options, taking an order for one of
 * the owner's accounts (JSAPI with the session's openid inside WeChat, Native with a QR code
 * otherwise), and following it to its booking. Tenant and owner are always the session's.
 */
export async function ownerPayRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string },
) {
  const { db, timeZone } = opts;
  const deps: WxpayDeps = {
    db,
    cipher: opts.cipher,
    timeZone,
    log: (message, fields) => app.log.warn(fields, message),
  };
  const config = { public: true } as const;
  const tags = ["ownerPage"];

  app.get(
    `${OWNER_BASE}/wxpay/options`,
    { config, schema: { tags, summary: "Whether WeChat Pay is on, its limit and preset amounts" } },
    async (request) => {
      const session = await sessionOf(db, request);
      boundOwner(session);
      const limit = await loadMerchant(db, opts.cipher, session.tenantId).then(
        (m) => m.maxAmountFen,
        () => undefined,
      );
      return ok({ ...payOptions(limit), channel: session.kind === "wechat" ? "jsapi" : "native" });
    },
  );

  app.post(
    `${OWNER_BASE}/wxpay/order`,
    { config, schema: { tags, summary: "A WeChat Pay order for one of the owner's accounts (yuan)" } },
    async (request) => {
      const session = await sessionOf(db, request);
      const ownerId = boundOwner(session);
      const params = readParams(request);
      const accountId = optionalId(params, "accountId");
      if (!accountId) throw badRequest("accountId: 请选择账户");
      // Another owner's account is not found, whatever else is wrong with the request.
      await ownAccount(db, session.tenantId, ownerId, accountId);
      const amountFen = amountOf(params);
      const wechat = session.kind === "wechat";
      const order = await createOrder(deps, {
        tenantId: session.tenantId,
        ownerId,
        accountId,
        amountFen,
        channel: wechat ? "jsapi" : "native",
        ...(wechat ? { openid: session.identity } : {}),
        actor: { name: "业主" },
      });
      return ok({
        outTradeNo: order.outTradeNo,
        tradeType: order.tradeType,
        amount: order.amount,
        expireTime: order.expireTime,
        codeUrl: order.codeUrl,
        ...(order.payParams ? { payParams: order.payParams } : {}),
        demoPayUrl: (await demoLinkOf(db, session.tenantId, order)) ?? "",
      });
    },
  );

  app.get<{ Params: { outTradeNo: string } }>(
    `${OWNER_BASE}/wxpay/order/:outTradeNo`,
    { config, schema: { tags, summary: "One of the owner's orders: state, receipt, balance, restore" } },
    async (request) => {
      const session = await sessionOf(db, request);
      const ownerId = boundOwner(session);
      return ok(await followOrder(db, session.tenantId, ownerId, request.params.outTradeNo, timeZone));
    },
  );

  // The demo's simulated WeChat cashier, passed on from the double (which listens on 127.0.0.1
  // only) so that a browser on another machine can pay too. Without a demo double: not found.
  const passOn = async (reply: FastifyReply, answer: Promise<Response>) => {
    const res = await answer;
    return reply
      .code(res.status)
      .type("text/html; charset=utf-8")
      .send(await res.text());
  };
  const cashierPr = (params: Record<string, unknown>) => {
    const pr = optionalString(params, "pr") ?? "";
    if (!/^[0-9a-f]{24}$/.test(pr)) throw badRequest("pr: 订单不存在");
    return pr;
  };
  app.get(
    DEMO_CASHIER_PATH,
    { config, schema: { tags, summary: "Demo only: the simulated WeChat's cashier page of a Native order" } },
    async (request, reply) => {
      const base = demoDouble();
      if (!base) throw notFound();
      return passOn(reply, fetch(`${base}/cashier?pr=${cashierPr(readParams(request))}`));
    },
  );
  app.post(
    `${DEMO_CASHIER_PATH}/pay`,
    { config, schema: { tags, summary: "Demo only: pay a Native order in the simulated WeChat" } },
    async (request, reply) => {
      const base = demoDouble();
      if (!base) throw notFound();
      const body = new URLSearchParams({ pr: cashierPr(readParams(request)) }).toString();
      return passOn(
        reply,
        fetch(`${base}/cashier/pay`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      );
    },
  );
}
