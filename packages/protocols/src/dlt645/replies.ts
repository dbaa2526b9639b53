import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import type { FieldInput } from "../values.ts";
import { encodeAddress } from "./address.ts";
import { type Dlt645Version, Fn1997, Fn2007, replyControl } from "./control.ts";
import { encodeDataItem } from "./data-item.ts";
import { encodeDi, lookupDataItem } from "./di.ts";
import { type ErrorFlag, encodeErrorByte } from "./error-byte.ts";
import { buildFrame } from "./frame.ts";
import { type BuildOptions, versionOf } from "./requests.ts";

/** Meter-side reply builders, for the simulated fleet. */
export interface ReplyOptions extends BuildOptions {
  /** Set D5: more frames follow (the master then sends 0x12 follow-up reads). */
  followUp?: boolean;
}

/** Normal read reply (2007 C=0x91 / 0xB1, 1997 C=0x81): DI + value bytes. */
export function buildReadReply(
  address: string,
  di: string,
  values: readonly FieldInput[] | Uint8Array,
  options: ReplyOptions = {},
): Uint8Array {
  const version = versionOf(di, options);
  let payload: Uint8Array;
  if (values instanceof Uint8Array) payload = values;
  else {
    const item = lookupDataItem(di, version);
    if (!item) fail("bad-argument", `DI ${di} is not in the table; pass the value as raw bytes`);
    payload = encodeDataItem(item, values);
  }
  const fn = version === "2007" ? Fn2007.READ : Fn1997.READ;
  const control = replyControl(fn, { followUp: options.followUp });
  return buildFrame({
    address,
    control,
    data: concatBytes(encodeDi(di, version), payload),
    preamble: options.preamble,
  });
}

/** Follow-up reply (2007 C=0x92 / 0xB2): DI + data + SEQ. */
export function buildReadFollowUpReply(
  address: string,
  di: string,
  data: Uint8Array,
  seq: number,
  options: ReplyOptions = {},
): Uint8Array {
  const version = versionOf(di, options);
  const fn = version === "2007" ? Fn2007.READ_FOLLOW_UP : Fn1997.READ_FOLLOW_UP;
  const control = replyControl(fn, { followUp: options.followUp });
  return buildFrame({
    address,
    control,
    data: concatBytes(encodeDi(di, version), data, Uint8Array.of(seq & 0xff)),
    preamble: options.preamble,
  });
}

/** Read-address reply (0x93): the address again in DATA, LSB first, +0x33. */
export function buildReadAddressReply(address: string, options: BuildOptions = {}): Uint8Array {
  return buildFrame({
    address,
    control: replyControl(Fn2007.READ_ADDRESS),
    data: encodeAddress(address),
    preamble: options.preamble,
  });
}

/** Write acknowledgement: 2007 C=0x94, 1997 C=0x84, L=0. */
export function buildWriteAck(address: string, options: BuildOptions = {}): Uint8Array {
  const fn = (options.version ?? "2007") === "2007" ? Fn2007.WRITE : Fn1997.WRITE;
  return buildFrame({ address, control: replyControl(fn), preamble: options.preamble });
}

/** Relay control acknowledgement: C=0x9C, L=0. */
export function buildRelayAck(address: string, options: BuildOptions = {}): Uint8Array {
  return buildFrame({ address, control: replyControl(Fn2007.RELAY_CONTROL), preamble: options.preamble });
}

/**
 * Abnormal reply to a request with function `fn`: C = 0xC0 | fn, one ERR byte (+0x33).
 * `error` is the raw ERR byte or the flags of the given edition (metering-domain.md §1.4).
 */
export function buildErrorReply(
  address: string,
  fn: number,
  error: number | readonly ErrorFlag[],
  options: { version?: Dlt645Version; preamble?: number } = {},
): Uint8Array {
  const version: Dlt645Version = options.version ?? (fn >= 0x11 || fn === 0x08 ? "2007" : "1997");
  const byte = typeof error === "number" ? error : encodeErrorByte(error, version);
  if (!Number.isInteger(byte) || byte < 0 || byte > 0xff) fail("bad-argument", "ERR must be a byte");
  return buildFrame({
    address,
    control: replyControl(fn, { abnormal: true }),
    data: Uint8Array.of(byte),
    preamble: options.preamble,
  });
}
