/**
 * The alarm rules as pure functions of a meter's facts (metering-domain §4.2 for the balance
 * levels): each answers whether its condition holds now, so the same code decides on a reading as
 * it arrives and in the periodic pass, and the tests can walk every edge without a database.
 */

export const RULE_CODES = [
  "balance_low",
  "balance_severe",
  "arrears",
  "offline",
  "register_back",
  "register_jump",
  "water_flow",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

export const isRuleCode = (code: string): code is RuleCode =>
  (RULE_CODES as readonly string[]).includes(code);

/** A rule as the tenant set it (pms_alarm), or its default when the tenant has no row for it. */
export interface RuleSetting {
  code: RuleCode;
  name: string;
  enabled: boolean;
  /** Minutes (offline), units per hour (register jump), hours (water flow); unused by balance rules. */
  threshold: number;
}

/** Defaults of a rule nobody has set: names from the alarm_rule dictionary, thresholds typical of the field. */
export const DEFAULT_RULES: Record<RuleCode, Omit<RuleSetting, "code">> = {
  balance_low: { name: "余额不足", enabled: true, threshold: 0 },
  balance_severe: { name: "余额严重不足", enabled: true, threshold: 0 },
  arrears: { name: "欠费", enabled: true, threshold: 0 },
  // Four missed 15-minute polls.
  offline: { name: "表计离线", enabled: true, threshold: 60 },
  register_back: { name: "读数倒走", enabled: true, threshold: 0 },
  // A 60 A three-phase meter draws about 40 kW; water DN20 carries about 5 m³/h.
  register_jump: { name: "读数跳变", enabled: true, threshold: 50 },
  water_flow: { name: "持续流水", enabled: true, threshold: 24 },
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
}

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
  return found;
}

const readsText = (reads: readonly RegisterRead[]) => {
  const [before, last] = reads.slice(-2);
  return `${before?.total} → ${last?.total}`;
};
