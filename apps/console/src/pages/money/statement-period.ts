import type { Dayjs } from "dayjs";
import type { MessageKey } from "../../i18n/index.tsx";
import type { StatementQuery } from "./money-calls.ts";
import { DAY } from "./money-filters.ts";

/** The server's bound on one statement. */
export const MAX_STATEMENT_DAYS = 366;

/** This month so far: the statement's default period. */
export const defaultPeriod = (today: Dayjs): [Dayjs, Dayjs] => [today.startOf("month"), today.startOf("day")];

/** Why a period cannot be asked for, or undefined when it can. */
export function periodProblem(from: Dayjs | null, to: Dayjs | null): MessageKey | undefined {
  if (!from || !to) return "statement.pickAccount";
  if (to.isBefore(from, "day")) return "statement.badPeriod";
  if (to.diff(from, "day") > MAX_STATEMENT_DAYS) return "statement.periodTooLong";
  return undefined;
}

export const statementQuery = (accountId: string, from: Dayjs, to: Dayjs): StatementQuery => ({
  accountId,
  startDay: from.format(DAY),
  endDay: to.format(DAY),
});
