import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { localDay } from "../metering/usage-periods.ts";
import { paramValue } from "../param/param-values.ts";
import {
  claimRun,
  dailyCharges,
  type EpisodeWrite,
  type NewWarning,
  openAccounts,
  queueWarnings,
  tenantsWithAccounts,
  writeEpisodes,
} from "./forecast-warnings.repository.ts";
import { episodeStep, forecastDays, historyWindow, storedWarnDays, withinWarning } from "./warning-rules.ts";

/** The tenant-level parameter holding the warning days (seed 059; set under 资金审批设置). */
export const WARN_DAYS_KEY = "owner.forecast.warnDays";
/** Owners are texted from this local hour on, never in the night. */
const FIRST_HOUR = 9;

export async function warnDaysOf(db: Queryable, tenantId: string): Promise<number> {
  return storedWarnDays(await paramValue(db, WARN_DAYS_KEY, tenantId));
}

export interface RunOutcome {
  accounts: number;
  warned: number;
  ended: number;
}

/**
 * One tenant's run for the local day of `now`, unless a run of that day already took place (in
 * this process or another): forecasts every open account from its daily charges, texts the owners
 * of accounts whose forecast fell within the warning days and opens their episode, and ends the
 * episodes of accounts a recharge lifted above. The claim, the messages and the episodes commit
 * together, so a run that fails leaves the day to the next attempt.
 */
export async function warnTenant(
  db: Db,
  tenantId: string,
  now: Date,
  timeZone: string,
): Promise<RunOutcome | undefined> {
  const today = localDay(now, timeZone);
  return db.transaction(async (tx) => {
    if (!(await claimRun(tx, tenantId, today))) return undefined;
    const warnDays = await warnDaysOf(tx, tenantId);
    const accounts = await openAccounts(tx, tenantId, timeZone);
    const window = historyWindow(today, "0000-01-01")!;
    const charges = await dailyCharges(tx, tenantId, window.from, window.to);
    const writes: EpisodeWrite[] = [];
    const warnings: NewWarning[] = [];
    let ended = 0;
    for (const account of accounts) {
      const balance = BigInt(account.balance);
      const days = forecastDays(balance, today, account.opened_day, charges.get(account.id) ?? new Map());
      const step = episodeStep(account.open === 1, days, warnDays);
      if (step === "warn") warnings.push({ messageId: nextId(), accountId: account.id, days: days! });
      if (step === "end") ended++;
      writes.push({
        accountId: account.id,
        open: step === "warn" || (step === "stay" && account.open === 1) ? 1 : 0,
        warned: step === "warn",
        days,
        balance: account.balance,
        messageId: null,
      });
    }
    const queued = await queueWarnings(tx, tenantId, today, warnings);
    for (const write of writes) write.messageId = queued.get(write.accountId) ?? null;
    await writeEpisodes(tx, tenantId, today, writes);
    return { accounts: accounts.length, warned: queued.size, ended };
  });
}

/**
 * The daily job: from FIRST_HOUR local time, each tenant with open accounts is run once for the
 * day, in whichever process claims it first. Answers the tenants this call ran.
 */
export async function warnDailyIfDue(db: Db, now: Date, timeZone: string): Promise<string[]> {
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone }).format(now),
  );
  if (hour < FIRST_HOUR) return [];
  const ran: string[] = [];
  for (const tenantId of await tenantsWithAccounts(db)) {
    if (await warnTenant(db, tenantId, now, timeZone)) ran.push(tenantId);
  }
  return ran;
}

export interface AccountForecast {
  /** Days until the balance is spent (1: today); 0 already spent; null plenty or unknown. */
  forecastDays: number | null;
  /** True when the forecast is within the tenant's warning days (the owner page shows it then). */
  warning: boolean;
}

/**
 * The forecast of some of a tenant's accounts now (the owner page's): figured afresh from today's
 * balance, so a recharge shows at once. Two statements whatever the number of accounts.
 */
export async function forecastsOf(
  db: Queryable,
  tenantId: string,
  accounts: readonly { id: string; balanceFen: string; openedDay: string }[],
  now: Date,
  timeZone: string,
): Promise<Map<string, AccountForecast>> {
  const found = new Map<string, AccountForecast>();
  if (accounts.length === 0) return found;
  const today = localDay(now, timeZone);
  const warnDays = await warnDaysOf(db, tenantId);
  const window = historyWindow(today, "0000-01-01")!;
  const charges = await dailyCharges(
    db,
    tenantId,
    window.from,
    window.to,
    accounts.map((a) => a.id),
  );
  for (const account of accounts) {
    const days = forecastDays(
      BigInt(account.balanceFen),
      today,
      account.openedDay,
      charges.get(account.id) ?? new Map(),
    );
    found.set(account.id, {
      forecastDays: days,
      warning: withinWarning(days, warnDays),
    });
  }
  return found;
}
