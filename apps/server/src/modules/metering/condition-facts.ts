import type { MeterReading } from "@meterline/gateway";
import { formatDateTime } from "../../contract/dates.ts";

/**
 * What the readings sink keeps of a meter's own reports for the alarm rules, derived from one
 * reading. Each is null when the reading did not carry it, so the stored value stays as it was.
 */
export interface ConditionFacts {
  statusWord1: string | null;
  /** kW with four places, signed. */
  activePower: string | null;
  /** The meter's clock minus the reading's time, whole seconds. */
  clockOffset: number | null;
  coverOpenCount: number | null;
  /** Status word 3 shows the relay commanded open (bit 6) but closed (bit 4); null without the word. */
  relayStuck: boolean | null;
  /** Water: 1 when ST reports the valve abnormal, 0 for a valve that reports open or closed. */
  valveFault: 0 | 1 | null;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Seconds since the epoch of a wall-clock text read as if it were UTC: two such values subtract exactly. */
function wallSeconds(text: string): number | null {
  const m = WALL_CLOCK.exec(text.trim());
  if (!m) return null;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/**
 * The meter's clock against the true time it was read at, both as wall clocks in the tenant's zone
 * (the meters keep local time): positive when the meter runs ahead.
 */
export function clockOffsetSeconds(
  meterTime: string | null | undefined,
  at: Date,
  timeZone: string,
): number | null {
  if (!meterTime) return null;
  const meter = wallSeconds(meterTime);
  const truth = wallSeconds(formatDateTime(at, timeZone));
  return meter === null || truth === null ? null : Math.round(meter - truth);
}

/** Signed decimal text with exactly four places (the power register's resolution), or null. */
export function powerText(value: string | undefined): string | null {
  if (value === undefined) return null;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return null;
  return `${m[1]}${m[2]}.${(m[3] ?? "").padEnd(4, "0").slice(0, 4)}`;
}

export function conditionFacts(reading: MeterReading, timeZone: string): ConditionFacts {
  const word3 =
    reading.statusWord3 && /^[0-9A-F]{4}$/i.test(reading.statusWord3)
      ? Number.parseInt(reading.statusWord3, 16)
      : null;
  return {
    statusWord1: reading.statusWord1 ?? null,
    activePower: powerText(reading.activePower),
    clockOffset: clockOffsetSeconds(reading.meterTime, reading.at, timeZone),
    coverOpenCount: reading.coverOpenCount ?? null,
    relayStuck: word3 === null ? null : (word3 & 0x40) !== 0 && (word3 & 0x10) === 0,
    valveFault: reading.valve === undefined ? null : reading.valve === "abnormal" ? 1 : 0,
  };
}
