import { isPlainDecimal, toUnits } from "@meterline/billing";
import {
  ALARM_RULE_CODES,
  ALARM_RULE_NAMES,
  type AlarmRuleCode,
  isAlarmRuleCode,
  LINE_LOSS_RULE_CODES,
} from "@meterline/contracts";

/**
 * The alarm rules as pure functions of a meter's facts (metering-domain §4.2 for the balance
 * levels): each answers whether its condition holds now, so the same code decides on a reading as
 * it arrives and in the periodic pass, and the tests can walk every edge without a database.
 */

export const RULE_CODES = ALARM_RULE_CODES;
export type RuleCode = AlarmRuleCode;
export const isRuleCode = isAlarmRuleCode;

/**
 * The rules decided from a meter's facts: the pass raises and restores these. The line-loss rules
 * are raised by the daily sweep, one record per node and day, and never restore by themselves.
 */
export const METER_RULE_CODES: readonly RuleCode[] = RULE_CODES.filter(
  (code) => !(LINE_LOSS_RULE_CODES as readonly string[]).includes(code),
);

/** A rule as the tenant set it (pms_alarm), or its default when the tenant has no row for it. */
export interface RuleSetting {
  code: RuleCode;
  name: string;
  enabled: boolean;
  /**
   * The rule's one number, in the unit the rule reads: minutes (offline, clock drift, relay settle
   * time, an unsettled command's wait), units per hour (register jump), hours (water flow, how long
   * a cover opening stays alarming), kW (over-power); unused by the rules on a state or a level.
   */
  threshold: number;
}

const rule = (code: RuleCode, threshold: number, enabled = true) => ({
  name: ALARM_RULE_NAMES[code].zh,
  enabled,
  threshold,
});

/** Defaults of a rule nobody has set: names from the alarm_rule dictionary, thresholds typical of the field. */
export const DEFAULT_RULES: Record<RuleCode, Omit<RuleSetting, "code">> = {
  balance_low: rule("balance_low", 0),
  balance_severe: rule("balance_severe", 0),
  arrears: rule("arrears", 0),
  // Four missed 15-minute polls.
  offline: rule("offline", 60),
  register_back: rule("register_back", 0),
  // A 60 A three-phase meter draws about 40 kW; water DN20 carries about 5 m³/h.
  register_jump: rule("register_jump", 50),
  water_flow: rule("water_flow", 24),
  reverse_energy: rule("reverse_energy", 0),
  // Time-of-use bands start on the quarter hour: five minutes off already bills the wrong band.
  clock_drift: rule("clock_drift", 5),
  // The meter reports openings as a count: an opening alarms for a day, then restores unless repeated.
  cover_open: rule("cover_open", 24),
  // A relay answers within seconds; five minutes covers a meter's own trip delay.
  relay_fault: rule("relay_fault", 5),
  battery_low: rule("battery_low", 0),
  valve_fault: rule("valve_fault", 0),
  // Above what a 60 A single-phase supply (about 13 kW) can draw: the meter is overloaded or misread.
  over_power: rule("over_power", 20),
  // The gateway settles a timed-out command by reading the meter back at its next visit, within the hour.
  command_unsettled: rule("command_unsettled", 60),
  // Judged against each node's own band (line-loss module): no threshold of their own.
  loss_above_band: rule("loss_above_band", 0),
  loss_negative: rule("loss_negative", 0),
};

/** The tenant's rows over the defaults; unknown codes in the table are skipped. */
export function effectiveRules(
  rows: readonly { rule_code: string; check_rule_name: string; threshold: string | null; enabled: number }[],
): Record<RuleCode, RuleSetting> {
  const rules = Object.fromEntries(
    RULE_CODES.map((code) => [code, { code, ...DEFAULT_RULES[code] }]),
  ) as Record<RuleCode, RuleSetting>;
  for (const row of rows) {
    if (!isRuleCode(row.rule_code)) continue;
    const fallback = DEFAULT_RULES[row.rule_code];
    const threshold = row.threshold === null ? fallback.threshold : Number(row.threshold);
    rules[row.rule_code] = {
      code: row.rule_code,
      name: row.check_rule_name || fallback.name,
      enabled: row.enabled === 1,
      threshold: Number.isFinite(threshold) ? threshold : fallback.threshold,
    };
  }
  return rules;
}

/** A register value at a time; values are exact decimal text with two places, compared in hundredths. */
export interface RegisterRead {
  at: Date;
  total: string;
}

/** What the rules read of one meter. */
export interface MeterFacts {
  energyType: 1 | 2;
  /** ALARM_LEVEL of its open account (0–3), or null without one. */
  alarmLevel: number | null;
  /** The time of its latest reading, or null when it never answered (not installed yet: no alarm). */
  lastReadAt: Date | null;
  /** Its reads, oldest first: at least the last two, and for water every read of the flow window. */
  reads: readonly RegisterRead[];
  /** What the meter reported of itself at its latest readings. */
  condition: MeterCondition;
}

/**
 * The meter's own reports, as the readings sink kept them (pms_meter_current_data) and the command
 * queue left them; every one is null (or false) while the meter never reported it.
 */
export interface MeterCondition {
  /** DL/T 645 run status word 1 (04000501). */
  statusWord1: number | null;
  /** Since when status word 3 has shown the relay commanded open (bit 6) but still closed (bit 4). */
  relayStuckSince: Date | null;
  /** The meter's clock minus the true time when it was last read, in seconds. */
  clockOffsetSeconds: number | null;
  /** When the meter's cover-open event count (03300D00) was last seen to rise. */
  coverOpenedAt: Date | null;
  /** Water: the battery bit of status ST. */
  batteryLow: boolean;
  /** Water: status ST reports the valve abnormal (D1D0 = 11). */
  valveAbnormal: boolean;
  /** Total active power (02030000) in kW, exact text with up to four places, signed. */
  activePower: string | null;
  /** The meter's oldest command that timed out ("to be confirmed") and was never settled. */
  unsettledCommand: { type: string; at: Date } | null;
}

export const NO_CONDITION: MeterCondition = {
  statusWord1: null,
  relayStuckSince: null,
  clockOffsetSeconds: null,
  coverOpenedAt: null,
  batteryLow: false,
  valveAbnormal: false,
  activePower: null,
  unsettledCommand: null,
};

export interface Finding {
  code: RuleCode;
  /** ALARM_LEVEL the record carries: the balance level for balance rules, 0 otherwise. */
  level: number;
  /** What the operator reads on the record. */
  content: string;
}

const BALANCE_LEVEL: Record<"balance_low" | "balance_severe" | "arrears", number> = {
  balance_low: 1,
  balance_severe: 2,
  arrears: 3,
};

/** Hundredths of a unit from exact two-place decimal text, without floats. */
export function hundredths(text: string): bigint {
  // Registers as the readings keep them ("10001.00"): their digits, without a match (the alarm pass
  // reads two of every meter of every wave).
  if (isPlainDecimal(text, 2)) return toUnits(text, 2);
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?\d*$/.exec(text.trim());
  if (!match) throw new Error(`register value ${text}`);
  const value = BigInt(match[2]!) * 100n + BigInt((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -value : value;
}

const HOUR_MS = 3_600_000;

/** The balance level's rule holds exactly at its level: a deeper level is its own rule. */
export const balanceHolds = (code: keyof typeof BALANCE_LEVEL, level: number | null) =>
  level === BALANCE_LEVEL[code];

/** No reading for longer than the threshold (minutes). A meter that never answered is not offline. */
export function offlineHolds(lastReadAt: Date | null, now: Date, minutes: number): boolean {
  return lastReadAt !== null && now.getTime() - lastReadAt.getTime() > minutes * 60_000;
}

/** The latest interval ran backwards: the register fell below the read before it. */
export function registerBackHolds(reads: readonly RegisterRead[]): boolean {
  const [before, last] = reads.slice(-2);
  return before !== undefined && last !== undefined && hundredths(last.total) < hundredths(before.total);
}

/**
 * The latest interval advanced more than the rating allows in its time: threshold units per hour.
 * An interval of no time (two reads at one instant) allows nothing, so any advance is a jump.
 */
export function registerJumpHolds(reads: readonly RegisterRead[], unitsPerHour: number): boolean {
  const [before, last] = reads.slice(-2);
  if (before === undefined || last === undefined) return false;
  const advance = hundredths(last.total) - hundredths(before.total);
  if (advance <= 0n) return false;
  const ms = Math.max(0, last.at.getTime() - before.at.getTime());
  // advance (hundredths) > unitsPerHour × 100 × ms / hour, compared in whole numbers.
  const allowed = BigInt(Math.round(unitsPerHour * 100)) * BigInt(ms);
  return advance * BigInt(HOUR_MS) > allowed;
}

/**
 * Water ran in every interval of the last `hours`: the reads cover the whole window (one at or
 * before its start) and each one is above the one before. A single still interval breaks it, and
 * so does a gap longer than a twelfth of the window (two hours of a day): a rise over a longer gap
 * says water was used, not that it never stopped.
 */
export function continuousFlowHolds(reads: readonly RegisterRead[], now: Date, hours: number): boolean {
  if (hours <= 0) return false;
  const start = now.getTime() - hours * HOUR_MS;
  let first = -1;
  for (let i = reads.length - 1; i >= 0; i--) {
    if (reads[i]!.at.getTime() <= start) {
      first = i;
      break;
    }
  }
  if (first < 0 || first === reads.length - 1) return false;
  const maxGap = (hours * HOUR_MS) / 12;
  for (let i = first + 1; i < reads.length; i++) {
    if (reads[i]!.at.getTime() - reads[i - 1]!.at.getTime() > maxGap) return false;
    if (hundredths(reads[i]!.total) <= hundredths(reads[i - 1]!.total)) return false;
  }
  return true;
}

/** Status word 1 (DL/T 645-2007 appendix): bit 4 the active power direction, 1 reverse. */
export const reverseEnergyHolds = (statusWord1: number | null) =>
  statusWord1 !== null && (statusWord1 & 0x10) !== 0;

/**
 * A battery reports low: the water meter's ST bit, or status word 1 bit 2 (clock battery) or bit 3
 * (the battery that lets a meter be read during a power cut).
 */
export const batteryLowHolds = (condition: Pick<MeterCondition, "statusWord1" | "batteryLow">) =>
  condition.batteryLow || (condition.statusWord1 !== null && (condition.statusWord1 & 0x0c) !== 0);

/** The meter's clock is off by more than the threshold (minutes), ahead or behind. */
export const clockDriftHolds = (offsetSeconds: number | null, minutes: number) =>
  offsetSeconds !== null && Math.abs(offsetSeconds) > minutes * 60;

/** The cover was opened (its event count rose) within the last `hours`; the moment itself counts. */
export const coverOpenHolds = (openedAt: Date | null, now: Date, hours: number) =>
  openedAt !== null && now.getTime() - openedAt.getTime() < hours * HOUR_MS;

/**
 * The relay was commanded open and is still closed longer than the settle time (minutes). The
 * other disagreement, open while commanded closed, is a close allowed (1B) waiting for the user's
 * button, which may wait for days: it is not a fault.
 */
export const relayFaultHolds = (stuckSince: Date | null, now: Date, minutes: number) =>
  stuckSince !== null && now.getTime() - stuckSince.getTime() > minutes * 60_000;

/** Ten-thousandths of a kW from exact decimal text, without floats. */
function tenThousandths(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,4}))?\d*$/.exec(text.trim());
  if (!match) throw new Error(`power value ${text}`);
  const value = BigInt(match[2]!) * 10_000n + BigInt((match[3] ?? "").padEnd(4, "0"));
  return match[1] ? -value : value;
}

/**
 * P_STATUS 1 (over limit): the power drawn is above the threshold (kW). Power fed back (negative)
 * is the reverse-energy rule's business, so its size is compared too: either way the circuit
 * carries more than it should.
 */
export function overPowerHolds(activePower: string | null, kw: number): boolean {
  if (activePower === null) return false;
  const drawn = tenThousandths(activePower);
  const limit = BigInt(Math.round(kw * 10_000));
  return (drawn < 0n ? -drawn : drawn) > limit;
}

/** A command ended "to be confirmed" (timed out) longer than the threshold (minutes) ago and was never settled. */
export const commandUnsettledHolds = (
  command: MeterCondition["unsettledCommand"],
  now: Date,
  minutes: number,
) => command !== null && now.getTime() - command.at.getTime() > minutes * 60_000;

/** Every enabled rule whose condition holds for the meter now. */
export function findings(facts: MeterFacts, rules: Record<RuleCode, RuleSetting>, now: Date): Finding[] {
  const found: Finding[] = [];
  const add = (code: RuleCode, level: number, content: string) => {
    if (rules[code].enabled) found.push({ code, level, content });
  };
  for (const code of ["balance_low", "balance_severe", "arrears"] as const) {
    if (balanceHolds(code, facts.alarmLevel)) add(code, BALANCE_LEVEL[code], rules[code].name);
  }
  if (offlineHolds(facts.lastReadAt, now, rules.offline.threshold))
    add("offline", 0, `超过 ${rules.offline.threshold} 分钟无读数`);
  if (registerBackHolds(facts.reads)) add("register_back", 0, readsText(facts.reads));
  else if (registerJumpHolds(facts.reads, rules.register_jump.threshold))
    add("register_jump", 0, readsText(facts.reads));
  if (facts.energyType === 2 && continuousFlowHolds(facts.reads, now, rules.water_flow.threshold))
    add("water_flow", 0, `连续 ${rules.water_flow.threshold} 小时有流量`);
  const c = facts.condition;
  if (facts.energyType === 1 && reverseEnergyHolds(c.statusWord1)) add("reverse_energy", 0, "有功功率反向");
  if (clockDriftHolds(c.clockOffsetSeconds, rules.clock_drift.threshold))
    add(
      "clock_drift",
      0,
      `表计时钟${c.clockOffsetSeconds! > 0 ? "快" : "慢"} ${driftText(c.clockOffsetSeconds!)}`,
    );
  if (facts.energyType === 1 && coverOpenHolds(c.coverOpenedAt, now, rules.cover_open.threshold))
    add("cover_open", 0, "开表盖次数增加");
  if (facts.energyType === 1 && relayFaultHolds(c.relayStuckSince, now, rules.relay_fault.threshold))
    add("relay_fault", 0, `已令跳闸, 超过 ${rules.relay_fault.threshold} 分钟继电器仍合`);
  if (batteryLowHolds(c)) add("battery_low", 0, "表计电池欠压");
  if (facts.energyType === 2 && c.valveAbnormal) add("valve_fault", 0, "阀门状态异常");
  if (facts.energyType === 1 && overPowerHolds(c.activePower, rules.over_power.threshold))
    add("over_power", 0, `有功功率 ${c.activePower} kW, 超过 ${rules.over_power.threshold} kW`);
  if (commandUnsettledHolds(c.unsettledCommand, now, rules.command_unsettled.threshold))
    add("command_unsettled", 0, `指令 ${c.unsettledCommand!.type} 无应答待确认`);
  return found;
}

/** A clock offset as the operator reads it: whole minutes, or seconds under a minute. */
function driftText(seconds: number): string {
  const size = Math.abs(seconds);
  return size >= 60 ? `${Math.floor(size / 60)} 分钟` : `${size} 秒`;
}

const readsText = (reads: readonly RegisterRead[]) => {
  const [before, last] = reads.slice(-2);
  return `${before?.total} → ${last?.total}`;
};

/**
 * Whether the account's alarm scheme sends its owner an SMS: when its channels name `sms`, or name
 * none (a scheme that never chose keeps every channel there is, as before channels were chosen).
 */
export function notifiesBySms(channels: string | null): boolean {
  const chosen = (channels ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  return chosen.length === 0 || chosen.includes("sms");
}
