import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { type AlipayDeps, createAlipayOrder, getAlipayOrder } from "../alipay/alipay.service.ts";
import { amountOf } from "../money/recharge-input.ts";
import { ownAccount } from "./owner-reads.ts";
import { boundOwner, sessionOf } from "./owner-session.ts";
import { OWNER_BASE } from "./owner-sign-in.routes.ts";

/**
 * The owner's own Alipay recharges in a phone browser (issue 39): a wap order for one of the
 * owner's accounts answers the signed Alipay URL the page opens; following the order tells its
 * state and the account's balance. Tenant and owner are always the session's.
 */
export async function ownerAlipayRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string },
) {
  const { db } = opts;
  const deps: AlipayDeps = {
    db,
    cipher: opts.cipher,
    timeZone: opts.timeZone,
    log: (message, fields) => app.log.warn(fields, message),
  };
  const config = { public: true } as const;
  const tags = ["ownerPage"];

  app.post(
    `${OWNER_BASE}/alipay/order`,
    {
      config,
      schema: {
        tags,
        summary: "An Alipay wap order for one of the owner's accounts (yuan): the URL to open",
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
      const returnUrl = optionalString(params, "returnUrl") ?? "";
      if (returnUrl && !/^https?:\/\/\S+$/.test(returnUrl))
        throw badRequest("returnUrl: 应为 http:// 或 https:// 开头的地址");
      const order = await createAlipayOrder(deps, {
        tenantId: session.tenantId,
        ownerId,
        accountId,
        amountFen: amountOf(params),
        channel: "wap",
        ...(returnUrl ? { returnUrl } : {}),
        actor: { name: "业主" },
      });
      return ok({
        id: order.id,
        outTradeNo: order.outTradeNo,
        amount: order.amount,
        payUrl: order.payUrl ?? "",
      });
    },
  );

  app.get<{ Params: { id: string } }>(
    `${OWNER_BASE}/alipay/order/:id`,
    {
      config,
      schema: { tags, summary: "One of the owner's Alipay orders: state and the account's balance" },
    },
    async (request) => {
      const session = await sessionOf(db, request);
      const ownerId = boundOwner(session);
      if (!/^\d{1,19}$/.test(request.params.id)) throw notFound("id: 订单不存在");
      const order = await getAlipayOrder(db, session.tenantId, request.params.id, ownerId);
      if (!order) throw notFound("id: 订单不存在");
      const [account] = await db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where tenant_id = $1 and owner_id = $2 and id = $3",
        [session.tenantId, ownerId, order.accountId],
      );
      return ok({
        outTradeNo: order.outTradeNo,
        amount: order.amount,
        state: order.state,
        tradeNo: order.tradeNo,
        paidTime: order.paidTime,
        balanceFen: account?.balance ?? null,
      });
    },
  );
}
