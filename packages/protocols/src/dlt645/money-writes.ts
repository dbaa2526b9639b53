import type { DataItem } from "./data-item.ts";
import { decodeDataItem, encodeDataItem } from "./data-item.ts";

/**
 * Plain-text money writes of simple (non-ESAM) local-prepaid DL/T 645-2007 meters. The standard
 * has no plain-text recharge or account clearing: State Grid meters do both through the ESAM
 * (0x03 + MAC, "remote recharge" / "remote account opening", metering-domain.md §1.8), simple meters
 * through vendor DIs in the 0400Fxxx range. These are our vendor convention, shared by the gateway
 * and the simulated fleet. Both are 0x14 writes of
 *   purchase count (2 bytes BCD, the count the meter must reach) | amount (4 bytes BCD XXXXXX.XX yuan)
 * and the meter accepts one only when the count is its own count + 1, so neither can ever be
 * applied twice, and reading the purchase count (03330201) back tells whether one whose reply was
 * lost took effect.
 *  - recharge (0400F001): the amount is added to the remaining amount (00900200);
 *  - account clearing (0400F002, 销户清零): the amount is what the books say the meter holds; the
 *    meter accepts only when its remaining amount is exactly that (nothing spent since it was read,
 *    nothing owed) and then sets it to zero, so the closing refund is the money the meter gave up.
 */
export const MONEY_WRITE_DI = { recharge: "0400F001", clearing: "0400F002" } as const;

export type MoneyWriteKind = keyof typeof MONEY_WRITE_DI;

/** The data item of a money write (both conventions share one layout). */
export function moneyWriteItem(di: string, kind: MoneyWriteKind = "recharge"): DataItem {
  return {
    di,
    name:
      kind === "recharge" ? "remote recharge (vendor convention)" : "account clearing (vendor convention)",
    zh: kind === "recharge" ? "远程充值" : "销户清零",
    fields: [
      { name: "purchase count", format: { kind: "number", bytes: 2, decimals: 0, unit: "count" } },
      { name: "amount", format: { kind: "number", bytes: 4, decimals: 2, unit: "yuan" } },
    ],
  };
}

export interface MoneyWrite {
  purchaseCount: number;
  /** Exact decimal yuan, two places. */
  amount: string;
}

/** The data bytes (before +0x33) of a money write. */
export function encodeMoneyWrite(di: string, write: MoneyWrite): Uint8Array {
  return encodeDataItem(moneyWriteItem(di), [BigInt(write.purchaseCount), write.amount]);
}

/** A money write's fields from its data bytes (after −0x33); undefined when they do not fit. */
export function decodeMoneyWrite(di: string, data: Uint8Array): MoneyWrite | undefined {
  const { fields } = decodeDataItem(moneyWriteItem(di), data);
  const [count, amount] = fields;
  if (count?.kind !== "number" || amount?.kind !== "number" || count.scaled === null || amount.value === null)
    return undefined;
  return { purchaseCount: Number(count.scaled), amount: amount.value };
}
