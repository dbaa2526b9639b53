import { formatScaled, parseScaled } from "../decimal.ts";
import { type Data, encodeData } from "./axdr.ts";
import type { WalletInput, WalletOperation } from "./requests.ts";

/**
 * The meter's side of the ESAM wallet operation (ACTION F100, method WALLET_METHOD; DL/T 698.45-2017
 * interface class 21 "ESAM接口类", 钱包操作): reading its parameter back, and the bytes the cipher
 * machine's SID_MAC covers.
 *
 * Layout as we read the standard (confirm with the meter's protocol sheet):
 *   structure {
 *     操作类型 operation   integer              0 open account (开户) / 1 recharge (充值) / 2 refund (退费),
 *     购电金额 amount      double-long-unsigned  fen (0.01 元),
 *     购电次数 count       double-long-unsigned  the purchase count after this operation,
 *     户号     customer    octet-string,
 *     数据验证信息          SID_MAC,
 *     表号     meter       octet-string
 *   }
 */
export const WALLET_OPERATIONS: readonly WalletOperation[] = ["open-account", "recharge", "refund"];

/** The wallet parameter an ACTION F100 carries, or null when it is not that structure. */
export function readWalletData(data: Data): WalletInput | null {
  if (data.type !== "structure" || data.items.length !== 6) return null;
  const [op, amount, count, customer, sidMac, meter] = data.items;
  if (op?.type !== "integer" || amount?.type !== "double-long-unsigned") return null;
  if (count?.type !== "double-long-unsigned" || customer?.type !== "octet-string") return null;
  if (sidMac?.type !== "sid-mac" || meter?.type !== "octet-string") return null;
  const operation = WALLET_OPERATIONS[op.value];
  if (!operation) return null;
  return {
    operation,
    amount: formatScaled(BigInt(amount.value), 2),
    purchaseCount: count.value,
    customerNumber: customer.hex,
    sidMac: sidMac.value,
    meterNumber: meter.hex,
  };
}

/**
 * What the wallet's SID_MAC protects: the A-XDR encoding of the parameter without its SID_MAC
 * (operation, amount, count, customer number, meter number). A real cipher machine computes it
 * over the ESAM's recharge command data; only the two ends need to agree, and the codec never
 * holds a key.
 */
export function walletMacInput(input: WalletSidMacInput): Uint8Array {
  const fen = parseScaled(input.amount, 2);
  return encodeData({
    type: "structure",
    items: [
      { type: "integer", value: WALLET_OPERATIONS.indexOf(input.operation) },
      { type: "double-long-unsigned", value: Number(fen) },
      { type: "double-long-unsigned", value: input.purchaseCount },
      { type: "octet-string", hex: input.customerNumber.toUpperCase() },
      { type: "octet-string", hex: input.meterNumber.toUpperCase() },
    ],
  });
}

/** A wallet operation before the cipher machine has computed its SID_MAC. */
export type WalletSidMacInput = Omit<WalletInput, "sidMac">;
