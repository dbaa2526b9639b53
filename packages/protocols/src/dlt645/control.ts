/**
 * Control code C (metering-domain.md §1.3, §1.9):
 *   D7 direction (1 = meter→master), D6 abnormal reply, D5 more frames follow, D4..D0 function.
 */
export type Dlt645Version = "2007" | "1997";
export type Direction = "master->meter" | "meter->master";

export const DIRECTION_BIT = 0x80;
export const ABNORMAL_BIT = 0x40;
export const FOLLOW_UP_BIT = 0x20;
export const FUNCTION_MASK = 0x1f;

/** DL/T 645-2007 function codes. 0x03 is the State Grid ESAM security authentication (§1.3). */
export const Fn2007 = {
  SECURITY: 0x03,
  BROADCAST_TIME: 0x08,
  READ: 0x11,
  READ_FOLLOW_UP: 0x12,
  READ_ADDRESS: 0x13,
  WRITE: 0x14,
  WRITE_ADDRESS: 0x15,
  FREEZE: 0x16,
  CHANGE_BAUD: 0x17,
  CHANGE_PASSWORD: 0x18,
  CLEAR_DEMAND: 0x19,
  CLEAR_METER: 0x1a,
  CLEAR_EVENTS: 0x1b,
  RELAY_CONTROL: 0x1c,
} as const;

/** DL/T 645-1997 function codes (§1.9). */
export const Fn1997 = {
  READ: 0x01,
  READ_FOLLOW_UP: 0x02,
  REREAD: 0x03,
  WRITE: 0x04,
  BROADCAST_TIME: 0x08,
  WRITE_ADDRESS: 0x0a,
  CHANGE_BAUD: 0x0c,
  CHANGE_PASSWORD: 0x0f,
  CLEAR_DEMAND: 0x10,
} as const;

const NAMES_2007: Record<number, string> = {
  3: "security authentication",
  8: "broadcast time",
  17: "read data",
  18: "read follow-up data",
  19: "read communication address",
  20: "write data",
  21: "write communication address",
  22: "freeze",
  23: "change baud rate",
  24: "change password",
  25: "clear maximum demand",
  26: "clear meter",
  27: "clear events",
  28: "relay control / alarm / power-hold",
};

const NAMES_1997: Record<number, string> = {
  1: "read data",
  2: "read follow-up data",
  3: "re-read data",
  4: "write data",
  8: "broadcast time",
  10: "write address",
  12: "change baud rate",
  15: "change password",
  16: "clear maximum demand",
};

export interface ControlInfo {
  raw: number;
  direction: Direction;
  abnormal: boolean;
  followUp: boolean;
  function: number;
  functionName: string;
  version: Dlt645Version;
}

/**
 * Which edition a function code belongs to. 0x08 exists in both; 0x03 is the 1997 re-read
 * and the 2007 security command, so it follows `hint` and defaults to 2007.
 */
export function inferVersion(fn: number, hint?: Dlt645Version): Dlt645Version {
  if (hint) return hint;
  if (fn >= 0x11) return "2007";
  if (fn === 0x08 || fn === 0x03) return "2007";
  return fn in NAMES_1997 ? "1997" : "2007";
}

export function decodeControl(raw: number, versionHint?: Dlt645Version): ControlInfo {
  const fn = raw & FUNCTION_MASK;
  const version = inferVersion(fn, versionHint);
  const names = version === "2007" ? NAMES_2007 : NAMES_1997;
  return {
    raw,
    direction: raw & DIRECTION_BIT ? "meter->master" : "master->meter",
    abnormal: (raw & ABNORMAL_BIT) !== 0,
    followUp: (raw & FOLLOW_UP_BIT) !== 0,
    function: fn,
    functionName: names[fn] ?? `reserved function 0x${fn.toString(16).padStart(2, "0")}`,
    version,
  };
}

/** Control code of the meter's answer to a request with function `fn`. */
export function replyControl(fn: number, options: { abnormal?: boolean; followUp?: boolean } = {}): number {
  return (
    DIRECTION_BIT |
    (options.abnormal ? ABNORMAL_BIT : 0) |
    (options.followUp ? FOLLOW_UP_BIT : 0) |
    (fn & FUNCTION_MASK)
  );
}
