import type { DateTimeInput } from "../datetime.ts";
import { encodeDateTime } from "../datetime.ts";
import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import type { FieldInput } from "../values.ts";
import { BROADCAST_ADDRESS, WILDCARD_ADDRESS } from "./address.ts";
import { type Dlt645Version, Fn1997, Fn2007 } from "./control.ts";
import { type Credentials, encodeCredentials } from "./credentials.ts";
import { encodeDataItem } from "./data-item.ts";
import { encodeDi, lookupDataItem } from "./di.ts";
import { buildFrame } from "./frame.ts";
import { encodeRelayControl, type RelayControlInput } from "./relay.ts";

/** Master-side (gateway) request builders. All return the complete wire frame. */
export interface BuildOptions {
  /** FE wake-up bytes in front of the frame (per meter model; 0..4 usual). */
  preamble?: number;
  /** Edition; by default 4-hex-digit DIs mean 1997 and 8-digit DIs mean 2007. */
  version?: Dlt645Version;
}

export function versionOf(di: string, options: BuildOptions): Dlt645Version {
  return options.version ?? (di.length === 4 ? "1997" : "2007");
}

/** Read one data identifier: 2007 C=0x11 (DI 4 bytes), 1997 C=0x01 (DI 2 bytes). */
export function buildRead(address: string, di: string, options: BuildOptions = {}): Uint8Array {
  const version = versionOf(di, options);
  const control = version === "2007" ? Fn2007.READ : Fn1997.READ;
  return buildFrame({ address, control, data: encodeDi(di, version), preamble: options.preamble });
}

/** Ask for the next frame of a long reply (after a reply with D5 set): DI + SEQ. */
export function buildReadFollowUp(
  address: string,
  di: string,
  seq: number,
  options: BuildOptions = {},
): Uint8Array {
  const version = versionOf(di, options);
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xff) fail("bad-argument", "SEQ must be a byte");
  const control = version === "2007" ? Fn2007.READ_FOLLOW_UP : Fn1997.READ_FOLLOW_UP;
  return buildFrame({
    address,
    control,
    data: concatBytes(encodeDi(di, version), Uint8Array.of(seq)),
    preamble: options.preamble,
  });
}

/** 2007 read communication address (0x13, L=0); only on a point-to-point line, all-AA address. */
export function buildReadAddress(options: BuildOptions & { address?: string } = {}): Uint8Array {
  return buildFrame({
    address: options.address ?? WILDCARD_ADDRESS,
    control: Fn2007.READ_ADDRESS,
    preamble: options.preamble,
  });
}

export interface WriteOptions extends BuildOptions, Partial<Credentials> {}

/**
 * Write a data identifier. 2007 (0x14): DI | PA P0..P2 | C0..C3 | data; 1997 (0x04):
 * DI | PA P0..P2 | data (metering-domain.md §1.6, §1.9). `values` are encoded with the DI's
 * table format (decimal strings for money, DateTimeInput for times) or given as raw bytes.
 */
export function buildWrite(
  address: string,
  di: string,
  values: readonly FieldInput[] | Uint8Array,
  options: WriteOptions = {},
): Uint8Array {
  const version = versionOf(di, options);
  let payload: Uint8Array;
  if (values instanceof Uint8Array) payload = values;
  else {
    const item = lookupDataItem(di, version);
    if (!item) fail("bad-argument", `DI ${di} is not in the table; pass the value as raw bytes`);
    payload = encodeDataItem(item, values);
  }
  const credentials = encodeCredentials(options);
  const auth = version === "2007" ? credentials : credentials.subarray(0, 4);
  const control = version === "2007" ? Fn2007.WRITE : Fn1997.WRITE;
  return buildFrame({
    address,
    control,
    data: concatBytes(encodeDi(di, version), auth, payload),
    preamble: options.preamble,
  });
}

/** Broadcast time (0x08) to 99…99: ss mm hh DD MM YY, +0x33 like all data; no reply. */
export function buildBroadcastTime(time: DateTimeInput, options: BuildOptions = {}): Uint8Array {
  return buildFrame({
    address: BROADCAST_ADDRESS,
    control: Fn2007.BROADCAST_TIME,
    data: encodeDateTime("YYMMDDhhmmss", time),
    preamble: options.preamble,
  });
}

/** 2007 relay control (0x1C): trip, close allowed / direct, alarm, power-hold and releases. */
export function buildRelayControl(
  address: string,
  input: RelayControlInput,
  options: BuildOptions = {},
): Uint8Array {
  return buildFrame({
    address,
    control: Fn2007.RELAY_CONTROL,
    data: encodeRelayControl(input),
    preamble: options.preamble,
  });
}
