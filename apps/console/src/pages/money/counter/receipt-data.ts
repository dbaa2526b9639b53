import type { Row } from "@meterline/api-client";
import type { BookedRecharge, OwnerAccount, RechargeDetail, RechargeInput } from "./counter-calls.ts";

/** Everything a printed receipt says; taken from the booked recharge, not from the form. */
export interface ReceiptData {
  /** The site's name printed as the receipt's title: the tenant's name. */
  tenantName: string;
  /** The site's logo (a signed link to the tenant's upload) printed beside its name; empty when none. */
  tenantLogo?: string;
  /** Stored at booking (R + booking date + the recharge's id), so a reprint shows the same number. */
  receiptNo: string;
  createTime: string;
  ownerName: string;
  roomName: string;
  energyType: number;
  productCode: string;
  rechargeType: number;
  paymentMethod: number;
  amount: string;
  balanceAfter: string;
  operator: string;
  remark: string;
  /** The channel's transaction number (a scanned WeChat Pay or Alipay code); empty for money in hand. */
  transactionNo?: string;
  /** The server had booked this key before: the receipt is of that booking, nothing new was booked. */
  replayed: boolean;
  /** Built from the booking's answer because the booked recharge could not be read back. */
  partial?: boolean;
  /** A copy printed again from a list (补打), with the time it was printed. */
  reprintedAt?: string;
  /** An account's opening (its deposit) or closing (its refund) rather than a recharge. */
  operation?: "open" | "close";
  /** A closing slip: the final reading the account was settled to, and what became of supply. */
  finalReading?: string;
  closeSupply?: ClosingSupplyState;
}

/** What a closing did to supply (销户记录's closeSupply, closeSupplyReason, closeSupplyState). */
export interface ClosingSupplyState {
  /** 1 cut, 2 kept on, 0 nothing switched; "" before it was recorded. */
  supply: string;
  reason: string;
  /** The cut command's state: queued, sent, success, fail, timeout. */
  state: string;
}

/** The closing's supply of a 销户记录 row. */
export const closingSupplyOf = (row: Row): ClosingSupplyState => ({
  supply: text(row.closeSupply),
  reason: text(row.closeSupplyReason),
  state: text(row.closeSupplyState),
});

/** The receipt of a booked recharge as the server holds it; the room comes from the account. */
export const receiptOf = (detail: RechargeDetail, account: OwnerAccount, replayed: boolean): ReceiptData => ({
  ...receiptOfDetail(detail),
  roomName: detail.roomName || account.roomName,
  productCode: detail.productCode || account.productCode,
  replayed,
});

/** The receipt of a recharge as the server holds it, e.g. printed again (补打) from 充值记录. */
export const receiptOfDetail = (detail: RechargeDetail, reprintedAt?: string): ReceiptData => ({
  tenantName: detail.tenantName,
  tenantLogo: detail.tenantLogo ?? "",
  receiptNo: detail.receiptNo,
  createTime: detail.createTime,
  ownerName: detail.ownerName,
  roomName: detail.roomName,
  energyType: detail.energyType,
  productCode: detail.productCode,
  rechargeType: detail.rechargeType,
  paymentMethod: detail.paymentMethod,
  amount: detail.amount,
  balanceAfter: detail.balanceAfter ?? "",
  operator: detail.operator,
  remark: detail.remark,
  transactionNo: detail.transactionNo ?? "",
  replayed: false,
  ...(reprintedAt ? { reprintedAt } : {}),
});

/**
 * The receipt of a booking whose read-back failed: the money is booked, so the desk still gets the
 * receipt number, amount and balance from the booking's own answer, marked as partial.
 */
export const receiptFromAnswer = (
  booked: BookedRecharge,
  input: RechargeInput,
  account: OwnerAccount,
  ownerName: string,
  tenantName: string,
): ReceiptData => ({
  tenantName,
  receiptNo: booked.receiptNo,
  createTime: "",
  ownerName,
  roomName: account.roomName,
  energyType: account.energyType,
  productCode: account.productCode,
  rechargeType: input.rechargeType,
  paymentMethod: Number(input.paymentMethod),
  amount: booked.amount || input.amount,
  balanceAfter: booked.balanceAfter,
  operator: "",
  remark: input.remark,
  replayed: booked.replayed,
  partial: true,
});

const text = (value: unknown) => (value === undefined || value === null ? "" : String(value));

/**
 * The receipt of an account's opening (the deposit taken) or closing (the balance paid back), printed
 * again from 开户记录 or 销户记录: the list row is the server's record, number included.
 */
export const receiptOfAccountOperation = (row: Row, closing: boolean, reprintedAt?: string): ReceiptData => {
  const debt = text(row.debt);
  return {
    tenantName: text(row.tenantName),
    tenantLogo: text(row.tenantLogo),
    receiptNo: text(row.receiptNo),
    createTime: text(closing ? row.closeTime : row.openTime),
    ownerName: text(row.ownerName),
    roomName: text(row.roomName),
    energyType: Number(row.energyType),
    productCode: text(row.productCode),
    rechargeType: 0,
    // How an opening's deposit was paid; a closing's refund has no method recorded.
    paymentMethod: closing ? 0 : Number(row.paymentMethod) || 0,
    amount: text(closing ? row.refund : row.deposit),
    // Opening: the deposit is the first balance. Closing: nothing is left, or the debt still owed.
    balanceAfter: closing ? (debt && debt !== "0.00" ? `-${debt}` : "0.00") : text(row.deposit),
    operator: text(row.operator),
    remark: "",
    replayed: false,
    ...(reprintedAt ? { reprintedAt } : {}),
    operation: closing ? "close" : "open",
    ...(closing ? { finalReading: text(row.finalReading), closeSupply: closingSupplyOf(row) } : {}),
  };
};
