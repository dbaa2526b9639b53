/**
 * Valve control A017 data byte (metering-domain.md §2.3): 0x55 open, 0x99 close. Vendors add
 * 0x66 / 0x77 "free" open / close, 0xFF cancel a forced state and 0x00 query
 * (Zhou-HR/zxemeter:…/WMUdpSendCmdsUtils.java).
 */
export const ValveCommand = {
  open: 0x55,
  close: 0x99,
  "free-open": 0x66,
  "free-close": 0x77,
  "cancel-forced": 0xff,
  query: 0x00,
} as const;
export type ValveCommandName = keyof typeof ValveCommand;

const NAMES = new Map<number, ValveCommandName>(
  Object.entries(ValveCommand).map(([name, code]) => [code, name as ValveCommandName]),
);

export function valveCommandName(code: number): ValveCommandName | "unknown" {
  return NAMES.get(code) ?? "unknown";
}
