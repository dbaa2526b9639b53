import { BillingInputError, yuanToFen } from "@meterline/billing";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString } from "../../contract/params.ts";

type Params = Record<string, unknown>;

/** RECHARGE_TYPE of spec §3 that books money: 1 recharge, 2 refund, 3 correction plus, 4 correction minus. */
export type RechargeType = 1 | 2 | 3 | 4;

/** One operation moves at most a million yuan: a typo of three zeros is caught, not booked. */
export const MAX_AMOUNT_FEN = 100_000_000n;

export interface RechargeRequest {
  accountId?: string | undefined;
  meterId?: string | undefined;
  energyType: 1 | 2;
  rechargeType: RechargeType;
  paymentMethod: number;
  amount: bigint;
  remark: string;
  idempotencyKey?: string | undefined;
}

/** A positive amount in yuan with at most 2 decimals, within the bound; 400 naming the field otherwise. */
export function amountOf(params: Params, field = "amount"): bigint {
  const text = optionalString(params, field);
  if (text === undefined) throw badRequest(`${field}: 请输入金额`);
  let amount: bigint;
  try {
    amount = yuanToFen(text, field);
  } catch (error) {
    if (error instanceof BillingInputError) throw badRequest(`${field}: 金额应为最多2位小数的数字`);
    throw error;
  }
  if (amount <= 0n) throw badRequest(`${field}: 金额必须大于 0`);
  if (amount > MAX_AMOUNT_FEN) throw badRequest(`${field}: 单笔金额不能超过 1000000 元`);
  return amount;
}

function oneOf<T extends number>(params: Params, field: string, allowed: readonly T[], fallback?: T): T {
  const text = optionalString(params, field);
  if (text === undefined && fallback !== undefined) return fallback;
  const value = Number(text);
  if (text === undefined || !/^\d{1,2}$/.test(text) || !allowed.includes(value as T))
    throw badRequest(`${field}: 只能是 ${allowed.join("、")}`);
  return value as T;
}

/** A recharge, refund or correction as the console sends it (datarecharge/submit, message/recharge). */
export function rechargeRequestOf(params: Params): RechargeRequest {
  const rechargeType = oneOf(params, "rechargeType", [1, 2, 3, 4] as const, 1);
  const remark = (optionalString(params, "remark") ?? "").trim();
  if (remark.length > 255) throw badRequest("remark: 备注最多 255 个字符");
  // A correction changes money nobody paid or received: it must say why.
  if ((rechargeType === 3 || rechargeType === 4) && remark === "")
    throw badRequest("remark: 冲正必须填写原因");
  const idempotencyKey = optionalString(params, "idempotencyKey")?.trim();
  if (idempotencyKey !== undefined && !/^[\w-]{8,64}$/.test(idempotencyKey))
    throw badRequest("idempotencyKey: 应为 8 到 64 位字母、数字、- 或 _");
  return {
    accountId: optionalId(params, "accountId"),
    meterId: optionalId(params, "meterId"),
    energyType: oneOf(params, "energyType", [1, 2] as const, 1),
    rechargeType,
    paymentMethod: oneOf(params, "paymentMethod", [0, 1, 2, 3, 4, 5] as const, 1),
    amount: amountOf(params),
    remark,
    idempotencyKey,
  };
}
