import { compactFilters, type QueryParams, type Row } from "@meterline/api-client";
import type { Page } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";

const pms = "/api/blade-pms";

/** A page of a money list with the sums of the whole search (yuan as exact decimal text). */
export interface MoneyPage extends Page<Row> {
  totals?: Record<string, string | number | null>;
}

/** Where a money list reads its pages and exports its search, and the button that may export. */
export interface MoneyListCalls {
  page: string;
  exportPath: string;
  exportCode: string;
}

/** The four money lists of the 收费管理 menu (spec §7 PMS). */
export const moneyLists = {
  recharges: {
    page: `${pms}/datarecharge/page`,
    exportPath: `${pms}/datarecharge/export`,
    exportCode: "dataRecharge_export",
  },
  payments: {
    page: `${pms}/payment/list`,
    exportPath: `${pms}/payment/export`,
    exportCode: "payment_export",
  },
  openings: {
    page: `${pms}/dataopenaccount/page`,
    exportPath: `${pms}/dataopenaccount/export`,
    exportCode: "dataOpenAccount_export",
  },
  closings: {
    page: `${pms}/datacloseaccount/page`,
    exportPath: `${pms}/datacloseaccount/export`,
    exportCode: "dataCloseAccount_export",
  },
} satisfies Record<string, MoneyListCalls>;

export const loadMoneyPage = (path: string, query: QueryParams) =>
  api.get<MoneyPage>(path, compactFilters(query));

/** The download of a list's Excel for the search shown (paging left out: the whole search). */
export const moneyExportHref = (calls: MoneyListCalls, filters: QueryParams) =>
  withToken(calls.exportPath, compactFilters(filters));

/** One payment with the recharges it paid for (payment/detail). */
export interface PaymentDetail extends Record<string, unknown> {
  id: string;
  recharges?: Row[];
}

/** `tenantId`: the payment's tenant, which the platform administrator names (others' is their own). */
const tenantOf = (tenantId?: string) => (tenantId ? { tenantId } : {});

export const loadPaymentDetail = (id: string, tenantId?: string) =>
  api.get<PaymentDetail>(`${pms}/payment/detail`, { id, ...tenantOf(tenantId) });

/** Removes unpaid or failed payments; the server refuses paid ones. */
export const removePayments = (ids: readonly string[], tenantId?: string) =>
  api.post<unknown>(`${pms}/payment/remove`, undefined, { ids, ...tenantOf(tenantId) });

/** An open account as the statement's picker offers it. */
export interface AccountChoice {
  id: string;
  ownerName: string;
  energyType: number;
  productCode: string;
  roomName: string;
  /** The account's tenant: the platform administrator's picker offers every tenant's accounts. */
  tenantId?: string;
  tenantName?: string;
}

interface OwnerWithAccounts {
  ownerName: string;
  tenantId?: string;
  tenantName?: string;
  accounts: { id: string; energyType: number; productCode: string; roomName: string }[];
}

/** Open accounts of the owners matching `keyword` (name, phone, room or meter number). */
export async function searchAccounts(keyword: string): Promise<AccountChoice[]> {
  const page = await api.get<Page<OwnerWithAccounts>>(`${pms}/ownerRecharge/page`, {
    current: 1,
    size: 20,
    ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
  });
  return page.records.flatMap((owner) =>
    owner.accounts.map((account) => ({
      ...account,
      ownerName: owner.ownerName,
      tenantId: owner.tenantId,
      tenantName: owner.tenantName,
    })),
  );
}

/** A closed day of an account (pms_account_day), money in yuan, usage with 2 decimals. */
export interface StatementDay {
  day: string;
  openingBalance: string;
  usage: string;
  usageCharge: string;
  fee: string;
  credit: string;
  debit: string;
  closingBalance: string;
}

/** account/statement: an account's closed days over a period, with its recharges. */
export interface Statement {
  account: {
    id: string;
    energyType: number;
    productCode: string;
    ownerName: string;
    roomName: string;
    balance: string;
  };
  from: string;
  to: string;
  /** Null when no day of the period is closed yet. */
  openingBalance: string | null;
  closingBalance: string | null;
  totals: { usage: string; usageCharge: string; fee: string; credit: string; debit: string };
  days: StatementDay[];
  recharges: Row[];
}

export interface StatementQuery {
  accountId: string;
  startDay: string;
  endDay: string;
  /** The account's tenant, when the platform administrator opens another tenant's from a list. */
  tenantId?: string;
}

export const loadStatement = (query: StatementQuery) =>
  api.get<Statement>(`${pms}/account/statement`, { ...query });

/** The statement's Excel (account/statementExport, same parameters as the statement). */
export const statementExportHref = (query: StatementQuery) =>
  withToken(`${pms}/account/statementExport`, { ...query });

/** WeChat Pay orders (wxpay/list with descs; export with wxpay_export). */
export const wxpayList: MoneyListCalls = {
  page: `${pms}/wxpay/list`,
  exportPath: `${pms}/wxpay/export`,
  exportCode: "wxpay_export",
};

/** Refunds (part of) a paid WeChat Pay order through WeChat Pay; booked as a ledger refund. */
export const refundWxpay = (id: string, amount: string, reason: string, tenantId?: string) =>
  api.post<{ status: string }>(`${pms}/wxpay/refund`, { id, amount, reason, ...tenantOf(tenantId) });

/** A WeChat Pay order as the counter follows it. */
export interface WxpayOrder extends Record<string, unknown> {
  id: string;
  outTradeNo: string;
  amount: string;
  state: number;
  codeUrl: string;
  receiptNo: string;
  rechargeId: string;
}

/** A Native (QR code) order for an account at the counter. */
export const createNativeOrder = (accountId: string, amount: string, tenantId?: string) =>
  api.post<WxpayOrder>(`${pms}/wxpay/native`, { accountId, amount, ...tenantOf(tenantId) });

export const loadWxpayOrder = (id: string, tenantId?: string) =>
  api.get<WxpayOrder>(`${pms}/wxpay/detail`, { id, ...tenantOf(tenantId) });

/** What payment/save and payment/submit answer: the payment, and whether this call booked its recharge. */
export interface PaymentOutcome extends Record<string, unknown> {
  id: string;
  booked: boolean;
}

/** Takes a payment order for an account (payment/save): unpaid until it is confirmed. */
export const savePaymentOrder = (
  order: { accountId: string; amount: string; paymentMethod: string; remark: string },
  tenantId?: string,
) => api.post<PaymentOutcome>(`${pms}/payment/save`, { ...order, ...tenantOf(tenantId) });

/**
 * Confirms an unpaid or failed payment with the channel's transaction number (state 1): its
 * recharge is booked once; a second confirmation books nothing more.
 */
export const confirmPayment = (id: string, transactionNo: string, tenantId?: string) =>
  api.post<PaymentOutcome>(`${pms}/payment/submit`, { id, state: 1, transactionNo, ...tenantOf(tenantId) });

/** Closes an unpaid payment that will never be paid (state 2); it books nothing. */
export const closePayment = (id: string, tenantId?: string) =>
  api.post<PaymentOutcome>(`${pms}/payment/submit`, { id, state: 2, ...tenantOf(tenantId) });
