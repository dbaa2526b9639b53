import type { OwnerAccount, RechargeDetail } from "./counter-calls.ts";

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
