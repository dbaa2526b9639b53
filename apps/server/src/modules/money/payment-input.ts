import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString } from "../../contract/params.ts";
import { CHANNELS, type Channel, type PaymentState } from "./payment.repository.ts";
import { amountOf } from "./recharge-input.ts";

type Params = Record<string, unknown>;

/** What a payment/save or payment/submit carries; fields left out keep their stored value on update. */
export interface PaymentInput {
  id?: string | undefined;
  accountId?: string | undefined;
  meterId?: string | undefined;
  energyType: 1 | 2;
  amount?: bigint | undefined;
  paymentMethod?: number | undefined;
  channel?: Channel | undefined;
  state?: PaymentState | undefined;
  transactionNo?: string | undefined;
  remark?: string | undefined;
}

function smallChoice<T extends number>(params: Params, field: string, allowed: readonly T[]): T | undefined {
  const text = optionalString(params, field);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d$/.test(text) || !allowed.includes(value as T))
    throw badRequest(`${field}: 只能是 ${allowed.join("、")}`);
  return value as T;
}

/** A payment as the console sends it; 400 naming the field for anything malformed. */
export function paymentInputOf(params: Params): PaymentInput {
  const channelText = optionalString(params, "channel")?.trim();
  if (channelText !== undefined && !CHANNELS.includes(channelText as Channel))
    throw badRequest(`channel: 只能是 ${CHANNELS.join("、")}`);
  const transactionNo = optionalString(params, "transactionNo")?.trim();
  if (transactionNo !== undefined && !/^[\w-]{1,64}$/.test(transactionNo))
    throw badRequest("transactionNo: 应为 1 到 64 位字母、数字、- 或 _");
  const remark = optionalString(params, "remark")?.trim();
  if (remark !== undefined && remark.length > 255) throw badRequest("remark: 备注最多 255 个字符");
  return {
    id: optionalId(params, "id"),
    accountId: optionalId(params, "accountId"),
    meterId: optionalId(params, "meterId"),
    energyType: smallChoice(params, "energyType", [1, 2] as const) ?? 1,
    amount: optionalString(params, "amount") === undefined ? undefined : amountOf(params),
    paymentMethod: smallChoice(params, "paymentMethod", [0, 1, 2, 3, 4, 5] as const),
    channel: channelText as Channel | undefined,
    state: smallChoice(params, "state", [0, 1, 2] as const),
    transactionNo,
    remark,
  };
}
