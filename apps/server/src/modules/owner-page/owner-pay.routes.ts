import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { amountOf } from "../money/recharge-input.ts";
import { createOrder, loadMerchant, type WxpayDeps } from "../wxpay/wxpay.service.ts";
import { demoLinkOf, followOrder, payOptions } from "./owner-pay.ts";
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
}
