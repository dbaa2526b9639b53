import { balanceLevel, type ChargePart, type Thresholds, toUnits } from "@meterline/billing";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { appendEntry, appendParts, type LockedAccount, wholePart } from "./account.repository.ts";

/** LEDGER_TYPE: why a balance changed. */
export const LEDGER_TYPE = {
  openingDeposit: 1,
  recharge: 2,
  refund: 3,
  correctionPlus: 4,
  correctionMinus: 5,
  usageCharge: 6,
  monthlyFee: 7,
  closingRefund: 8,
  /** A correction of the readings re-priced a span: the difference, plus or minus (usage-correction.ts). */
  usageCorrection: 9,
  /** A room's share of its metering node's common-area usage of a month, or its reversal (apportionment/). */
  apportion: 10,
} as const;
export type LedgerType = (typeof LEDGER_TYPE)[keyof typeof LEDGER_TYPE];

/** Who or what moved the money: a signed-in operator, or a process such as pricing. */
export interface Actor {
  userId?: string;
  name: string;
}

const fen = (yuan: string | null) => (yuan === null ? 0n : toUnits(yuan, 2));

/**
 * Thresholds already parsed, by their columns' text (pricing asks for every reading of a wave and
 * a site has a handful of alarm schemes); forgotten whole past a few hundred. Frozen, as shared.
 */
const parsedThresholds = new Map<string, Readonly<Thresholds>>();

/** The account's alarm scheme in fen; without one, only arrears is marked and nothing trips. */
export function thresholdsOf(account: LockedAccount): Readonly<Thresholds> {
  // The same account object is asked again and again (each entry of a batch, an account a gateway
  // remembers across waves), and its scheme columns never change: found without the key.
  const held = thresholdsByAccount.get(account);
  if (held) return held;
  const thresholds = thresholdsOfColumns(account);
  thresholdsByAccount.set(account, thresholds);
  return thresholds;
}

const thresholdsByAccount = new WeakMap<object, Readonly<Thresholds>>();

function thresholdsOfColumns(account: LockedAccount): Readonly<Thresholds> {
  const key = `${account.first_alarm}\u0001${account.second_alarm}\u0001${account.arrears_limit}\u0001${account.trip_on_arrears}`;
  const known = parsedThresholds.get(key);
  if (known) return known;
  const thresholds = Object.freeze({
    firstAlarm: fen(account.first_alarm),
    secondAlarm: fen(account.second_alarm),
    arrearsLimit: fen(account.arrears_limit),
    tripOnArrears: account.trip_on_arrears === 1,
  });
  if (parsedThresholds.size >= 500) parsedThresholds.clear();
  parsedThresholds.set(key, thresholds);
  return thresholds;
}

export interface Booked {
  ledgerId: string;
  balanceBefore: bigint;
  balanceAfter: bigint;
  alarmLevel: number;
}

/**
 * The one way a balance changes (design.md §5): an appended ledger entry on a locked account, with
 * the balance, the alarm level and the arrears mark moved in the same statement. Callers lock the
 * account first (lockAccount) and check their own rules (a refund within the balance…).
 */
export async function book(
  tx: Queryable,
  account: LockedAccount,
  entry: {
    type: LedgerType;
    amount: bigint;
    cause: string;
    actor: Actor;
    rechargeId?: string;
    usage?: bigint;
    usageDay?: string;
    /** The reading a usage correction came from. */
    readingId?: string;
    /** For a usage charge: its split by ladder tier or time-of-use band, adding up to `amount`'s fen. */
    parts?: readonly ChargePart[];
  },
): Promise<Booked> {
  const balanceBefore = BigInt(account.balance);
  const balanceAfter = balanceBefore + entry.amount;
  const thresholds = thresholdsOf(account);
  const alarmLevel = balanceLevel(balanceAfter, thresholds);
  const ledgerId = nextId();
  const part = wholePart(entry.parts ?? [], entry.usage, entry.amount);
  await appendEntry(
    tx,
    {
      id: ledgerId,
      tenantId: account.tenant_id,
      accountId: account.id,
      ownerId: account.owner_id,
      entryType: entry.type,
      amount: entry.amount,
      balanceAfter,
      rechargeId: entry.rechargeId,
      usage: entry.usage,
      usageDay: entry.usageDay,
      readingId: entry.readingId,
      part,
      cause: entry.cause,
      userId: entry.actor.userId,
      creator: entry.actor.name,
    },
    { alarmLevel, arrearsStatus: alarmLevel === 3 ? 1 : 0 },
  );
  if (part === null && entry.parts?.length) await appendParts(tx, ledgerId, entry.parts);
  // Later bookings in the same transaction must start from here.
  account.balance = balanceAfter.toString();
  account.alarm_level = alarmLevel;
  account.arrears_status = alarmLevel === 3 ? 1 : 0;
  return { ledgerId, balanceBefore, balanceAfter, alarmLevel };
}
