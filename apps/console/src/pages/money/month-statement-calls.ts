import type { Page } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";

const base = "/api/blade-pms/statement";

export type StatementScope = "account" | "owner" | "room" | "building" | "site";
export const STATEMENT_SCOPES: readonly StatementScope[] = ["building", "room", "owner", "account", "site"];

/** One account's month, amounts in yuan as text. */
export interface AccountMonth {
  accountId: string;
  energyType: number;
  ownerName: string;
  roomName: string;
  productCode: string;
  openingBalance: string;
  deposit: string;
  recharge: string;
  refund: string;
  correction: string;
  usageCorrection: string;
  usage: string;
  usageCharge: string;
  fee: string;
  /** Shared cost (公摊) charged in the month, net of reversals. */
  apportion: string;
  closingBalance: string;
}

/** Usage of one energy type in a ladder tier ("tier1" …), a band, "flat", "unsplit", or its "total". */
export interface UsagePart {
  energyType: number;
  part: string;
  usage: string;
  charge: string;
}

/** statement/month: the month's lines of a scope and one page of its accounts. */
export interface MonthStatement {
  month: string;
  from: string;
  to: string;
  scope: { kind: StatementScope; id: string; name: string };
  openingBalance: string;
  deposit: string;
  recharge: string;
  refund: string;
  correction: string;
  usageCorrection: string;
  usageCharge: string;
  fee: string;
  /** Shared cost (公摊) charged in the month, net of reversals. */
  apportion: string;
  closingBalance: string;
  accounts: number;
  balanced: boolean;
  usage: UsagePart[];
  accountPage: Page<AccountMonth>;
}

export interface MonthStatementQuery {
  month: string;
  scope: StatementScope;
  scopeId?: string;
}

const params = (q: MonthStatementQuery) => ({
  month: q.month,
  scope: q.scope,
  ...(q.scope !== "site" && q.scopeId ? { scopeId: q.scopeId } : {}),
});

export const loadMonthStatement = (q: MonthStatementQuery, current: number, size: number) =>
  api.get<MonthStatement>(`${base}/month`, { ...params(q), current: String(current), size: String(size) });

/** The statement as .xlsx (monthStatement_export) and as .pdf (monthStatement_pdf). */
export const monthStatementExcelHref = (q: MonthStatementQuery) =>
  withToken(`${base}/monthExport`, params(q));
export const monthStatementPdfHref = (q: MonthStatementQuery) => withToken(`${base}/monthPdf`, params(q));
