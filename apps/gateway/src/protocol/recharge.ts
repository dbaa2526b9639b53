import { dlt645 } from "@meterline/protocols";

/**
 * Plain-text remote recharge of simple (non-ESAM) local-prepaid DL/T 645 meters. The standard has
 * no plain-text recharge: State Grid meters recharge through the ESAM (0x03 + MAC, §1.8), simple
 * meters through vendor DIs. This is our vendor convention, shared with the simulated fleet:
 * a 0x14 write of DI 0400F001 carrying
 *   purchase count (2 bytes BCD, the count the meter must reach) | amount (4 bytes BCD XXXXXX.XX yuan)
 * The meter accepts it only when the count is its own count + 1, so a replayed or duplicated
 * recharge can never be applied twice, and reading the purchase count (03330201) back tells
 * whether a recharge whose reply was lost took effect.
 */
export const DEFAULT_RECHARGE_DI = "0400F001";

export function rechargeItem(di: string): dlt645.DataItem {
  return {
    di,
    name: "remote recharge (vendor convention)",
    zh: "远程充值",
    fields: [
      { name: "purchase count", format: { kind: "number", bytes: 2, decimals: 0, unit: "count" } },
      { name: "amount", format: { kind: "number", bytes: 4, decimals: 2, unit: "yuan" } },
    ],
  };
}

export function encodeRecharge(di: string, purchaseCount: number, amount: string): Uint8Array {
  return dlt645.encodeDataItem(rechargeItem(di), [BigInt(purchaseCount), amount]);
}
