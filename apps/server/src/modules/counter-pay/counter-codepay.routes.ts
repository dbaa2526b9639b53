import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { CODE_PAY_TIMING, type CodePayTiming, payWithAlipayCode } from "../alipay/alipay-codepay.ts";
import { MONEY_CODES } from "../money/money.routes.ts";
import { amountOf } from "../money/recharge-input.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { payWithWechatCode, WECHAT_CODE_PAY_TIMING } from "../wxpay/wxpay-codepay.ts";
import { type CodeChannel, paymentCodeChannel } from "./payment-code.ts";

const pms = "/api/blade-pms";

/** What the counter shows and prints of a code payment, whichever channel took it. */
export interface CodePayReceipt {
  channel: CodeChannel;
  id: string;
  outTradeNo: string;
  /** The channel's own transaction number (微信支付单号 / 支付宝交易号); "" unless paid. */
  transactionNo: string;
  amount: string;
  /** 0 still open (the query job follows it), 1 paid and booked, 2 closed or reversed, 3 failed. */
  state: number;
  paidTime: Date | null;
  rechargeId: string;
  accountId: string;
}

const MESSAGES: Record<number, string> = {
  0: "付款结果未明,稍后自动查询",
  1: "收款成功",
  2: "付款未完成,已撤销",
  3: "付款失败",
};

/**
 * The counter's scanned payment code (issue 39): one route for both channels, which the code's
 * prefix tells apart. It answers once the payment is settled: paid (the recharge booked once),
 * or reversed / cancelled after the payer never confirmed. Permission as the counter's recharge.
 */
export async function counterCodePayRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string; codePayTiming?: CodePayTiming },
) {
  const { db, timeZone } = opts;
  const log = (message: string, fields: Record<string, unknown>) => app.log.warn(fields, message);
  app.post(
    `${pms}/counter/codepay`,
    {
      schema: {
        tags: ["counter"],
        summary:
          "A scanned WeChat Pay or Alipay payment code at the counter: meterId or accountId, energyType, amount in yuan, authCode; answers once paid or reversed",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, MONEY_CODES.recharge);
      const params = readParams(request);
      const energy = optionalString(params, "energyType") ?? "1";
      if (energy !== "1" && energy !== "2") throw badRequest("energyType: 只能是 1 或 2");
      const accountId = optionalId(params, "accountId");
      const meterId = optionalId(params, "meterId");
      if (!accountId && !meterId) throw badRequest("accountId: 请选择账户或表计");
      const authCode = (optionalString(params, "authCode") ?? "").trim();
      if (!authCode) throw badRequest("authCode: 请扫描付款码");
      const channel = paymentCodeChannel(authCode);
      if (!channel) throw badRequest("authCode: 不是微信或支付宝付款码");
      const input = {
        tenantId: registryTenant(user, params),
        ...(accountId ? { accountId } : {}),
        ...(meterId ? { meterId } : {}),
        energyType: Number(energy) as 1 | 2,
        amountFen: amountOf(params),
        authCode,
        actor: { userId: user.userId, name: user.realName || user.account },
      };
      const channelDeps = { db, cipher: opts.cipher, timeZone, log };
      let receipt: CodePayReceipt;
      if (channel === "wechat") {
        const order = await payWithWechatCode(
          channelDeps,
          input,
          opts.codePayTiming ?? WECHAT_CODE_PAY_TIMING,
        );
        receipt = { channel, ...pick(order), transactionNo: order.transactionId };
      } else {
        const order = await payWithAlipayCode(channelDeps, input, opts.codePayTiming ?? CODE_PAY_TIMING);
        receipt = { channel, ...pick(order), transactionNo: order.tradeNo };
      }
      return ok(receipt, MESSAGES[receipt.state] ?? "");
    },
  );
}

const pick = (order: {
  id: string;
  outTradeNo: string;
  amount: string;
  state: number;
  paidTime: Date | null;
  rechargeId: string;
  accountId: string;
}) => ({
  id: order.id,
  outTradeNo: order.outTradeNo,
  amount: order.amount,
  state: order.state,
  paidTime: order.paidTime,
  rechargeId: order.rechargeId,
  accountId: order.accountId,
});
