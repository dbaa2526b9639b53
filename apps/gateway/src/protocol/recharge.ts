import { dlt645 } from "@meterline/protocols";

/**
 * Plain-text money writes of simple (non-ESAM) local-prepaid DL/T 645 meters: the vendor convention
 * the gateway and the simulated fleet share lives in the codec (dlt645.MONEY_WRITE_DI): a recharge
 * and an account clearing each carry the purchase count the meter must reach, so neither is ever
 * applied twice and reading the purchase count (03330201) back settles one whose reply was lost.
 */
export const DEFAULT_RECHARGE_DI = dlt645.MONEY_WRITE_DI.recharge;
export const DEFAULT_CLEARING_DI = dlt645.MONEY_WRITE_DI.clearing;

export function rechargeItem(di: string): dlt645.DataItem {
  return dlt645.moneyWriteItem(di, "recharge");
}

export function encodeRecharge(di: string, purchaseCount: number, amount: string): Uint8Array {
  return dlt645.encodeMoneyWrite(di, { purchaseCount, amount });
}
