import type { BookedRecharge, OwnerAccount, RechargeDetail, RechargeInput } from "./counter-calls.ts";

/** Everything a printed receipt says; taken from the booked recharge, not from the form. */
export interface ReceiptData {
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
  /** The server had booked this key before: the receipt is of that booking, nothing new was booked. */
  replayed: boolean;
  /** Built from the booking's answer because the booked recharge could not be read back. */
  partial?: boolean;
}

/** The receipt of a booked recharge as the server holds it; the room comes from the account. */
export const receiptOf = (detail: RechargeDetail, account: OwnerAccount, replayed: boolean): ReceiptData => ({
  receiptNo: detail.receiptNo,
  createTime: detail.createTime,
  ownerName: detail.ownerName,
  roomName: account.roomName,
  energyType: detail.energyType,
  productCode: detail.productCode || account.productCode,
  rechargeType: detail.rechargeType,
  paymentMethod: detail.paymentMethod,
  amount: detail.amount,
  balanceAfter: detail.balanceAfter ?? "",
  operator: detail.operator,
  remark: detail.remark,
  replayed,
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
): ReceiptData => ({
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
