import { api } from "../../../app/api.ts";

const pms = "/api/blade-pms";

/** The tenant's money policy as money-policy/detail answers it (threshold in yuan, "" = none). */
export interface MoneyPolicy {
  threshold: string;
  approverRole: string;
  own: boolean;
  defaults: { threshold: string; approverRole: string };
  roles: { roleAlias: string; roleName: string }[];
  /** Days before the forecast cut owners are warned (0: off), own or the platform's default. */
  warnDays: number;
  warnDaysOwn: boolean;
  warnDaysDefault: number;
}

export const loadPolicy = () => api.get<MoneyPolicy>(`${pms}/money-policy/detail`);

export const savePolicy = (threshold: string, approverRole: string) =>
  api.post<MoneyPolicy>(`${pms}/money-policy/submit`, { threshold, approverRole });

export const saveWarnDays = (warnDays: string) =>
  api.post<MoneyPolicy>(`${pms}/money-policy/warn-days`, { warnDays });

/** The operation a money approval holds, as money-approval/detail answers it. */
export interface ApprovalRequest {
  kind: "refund" | "correction" | "wxRefund" | "closing" | "apportionment";
  processInstanceId: string;
  amount: string;
  accountId: string;
  energyType: number;
  productCode: string;
  balance: string;
  ownerName: string;
  phone: string;
  roomName: string;
  requester: string;
  requestTime: string;
  reason: string;
  /** 3 waiting, 1 booked, 4 rejected. */
  state: number;
  approvalNote: string;
  receiptNo: string;
  rechargeId: string;
}

export const loadApprovalRequest = (processInstanceId: string) =>
  api.get<ApprovalRequest>(`${pms}/money-approval/detail`, { processInstanceId });
