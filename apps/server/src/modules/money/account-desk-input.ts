import { badRequest } from "../../contract/errors.ts";
import { optionalString } from "../../contract/params.ts";
import type { ClosingSupply } from "./closing-supply.ts";

type Params = Record<string, unknown>;

/** PAYMENT_METHOD keys a desk takes money by (spec §3), as a counter recharge offers them. */
const PAYMENT_METHODS = [0, 1, 2, 3, 4, 5] as const;

/** How an opening deposit was paid (paymentMethod); cash when not said, as a counter recharge. */
export function depositMethodOf(params: Params): number {
  const text = optionalString(params, "paymentMethod");
  if (text === undefined) return 1;
  const value = Number(text);
  if (!/^\d$/.test(text) || !(PAYMENT_METHODS as readonly number[]).includes(value))
    throw badRequest(`paymentMethod: 只能是 ${PAYMENT_METHODS.join("、")}`);
  return value;
}

/**
 * Whether a closing keeps supply on (keepSupply 1 or true) and why (keepSupplyReason, required
 * then, at most 255 characters); by default supply is cut.
 */
export function closingSupplyOf(params: Params): ClosingSupply {
  const keepText = optionalString(params, "keepSupply") ?? "0";
  if (!["0", "1", "true", "false"].includes(keepText))
    throw badRequest("keepSupply: 只能是 0(断电) 或 1(保持供电)");
  const keep = keepText === "1" || keepText === "true";
  const reason = (optionalString(params, "keepSupplyReason") ?? "").trim();
  if (reason.length > 255) throw badRequest("keepSupplyReason: 原因最多 255 个字符");
  if (keep && reason === "") throw badRequest("keepSupplyReason: 保持供电须填写原因");
  return { keep, reason: keep ? reason : "" };
}
