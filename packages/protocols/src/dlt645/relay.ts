import { type DateTimeInput, decodeDateTime, encodeDateTime } from "../datetime.ts";
import { fail } from "../errors.ts";
import { type Credentials, decodeCredentials, encodeCredentials } from "./credentials.ts";

/**
 * Relay control 0x1C (拉合闸), 16 data bytes (metering-domain.md §1.7):
 *   PA | P0 P1 P2 | C0..C3 | N1 | N2 | N3..N8 valid-until ss mm hh DD MM YY
 * The validity time is the only replay protection in plain-text mode: use minutes, not years.
 */
export const RelayCommand = {
  trip: 0x1a,
  "close-allowed": 0x1b,
  "close-direct": 0x1c,
  alarm: 0x2a,
  "alarm-release": 0x2b,
  "power-hold": 0x3a,
  "power-hold-release": 0x3b,
} as const;
export type RelayCommandName = keyof typeof RelayCommand;

const NAMES = new Map<number, RelayCommandName>(
  Object.entries(RelayCommand).map(([name, code]) => [code, name as RelayCommandName]),
);

export interface RelayControlInput extends Partial<Credentials> {
  command: RelayCommandName;
  /** Deadline after which the meter must ignore the command. */
  validUntil: DateTimeInput;
}

export interface RelayControlRequest extends Credentials {
  /** Known command name, or "unknown" with the raw N1 in `commandCode`. */
  command: RelayCommandName | "unknown";
  commandCode: number;
  /** N2, reserved (00). */
  reserved: number;
  validUntil: string | null;
  validUntilStatus: "ok" | "absent" | "invalid";
}

export const RELAY_DATA_LENGTH = 16;

export function encodeRelayControl(input: RelayControlInput): Uint8Array {
  const code = RelayCommand[input.command];
  if (code === undefined) fail("bad-argument", `unknown relay command "${input.command}"`);
  const out = new Uint8Array(RELAY_DATA_LENGTH);
  out.set(encodeCredentials(input), 0);
  out[8] = code;
  out[9] = 0x00;
  out.set(encodeDateTime("YYMMDDhhmmss", input.validUntil), 10);
  return out;
}

/** Decode the 16 data bytes of a 0x1C request (offset already removed). */
export function decodeRelayControl(data: Uint8Array): RelayControlRequest {
  const code = data[8] ?? 0;
  const valid = decodeDateTime("YYMMDDhhmmss", data.subarray(10, 16));
  return {
    ...decodeCredentials(data),
    command: NAMES.get(code) ?? "unknown",
    commandCode: code,
    reserved: data[9] ?? 0,
    validUntil: valid.value,
    validUntilStatus: valid.status,
  };
}
