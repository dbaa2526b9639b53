import { decodeDateTime } from "../datetime.ts";
import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";
import { decodeAddress } from "./address.ts";
import { type ControlInfo, type Dlt645Version, decodeControl, Fn1997, Fn2007 } from "./control.ts";
import { decodeCredentials } from "./credentials.ts";
import { decodeDataItem } from "./data-item.ts";
import { decodeDi, diLength, lookupDataItem } from "./di.ts";
import { decodeErrorByte } from "./error-byte.ts";
import type { Dlt645Frame } from "./frame.ts";
import type { Dlt645Decoded, Dlt645Message } from "./messages.ts";
import { decodeRelayControl, RELAY_DATA_LENGTH } from "./relay.ts";
import { statusWord3FromWire } from "./status-word.ts";

export interface DecodeOptions {
  /** Force the edition; otherwise inferred from the function code (0x03 defaults to 2007). */
  version?: Dlt645Version;
}

/** Decode a parsed frame in either direction: requests for the simulated meter, replies for the gateway. */
export function decodeFrame(frame: Dlt645Frame, options: DecodeOptions = {}): Dlt645Decoded {
  const control = decodeControl(frame.control, options.version);
  const warnings: string[] = [];
  const message = decodeMessage(frame.data, control, warnings);
  // A 2-byte DI under the 2007 read code addresses a 1997 meter (library quirk, see decodeRead).
  const version = message.kind === "read-request" && message.di.length === 4 ? "1997" : control.version;
  return { protocol: "dlt645", version, address: frame.address, control, message, warnings };
}

/** decodeFrame for a frame that must come from a meter. */
export function decodeReply(frame: Dlt645Frame, options: DecodeOptions = {}): Dlt645Decoded {
  if ((frame.control & 0x80) === 0)
    fail("bad-direction", "expected a meter reply (D7 = 1), got a master request");
  return decodeFrame(frame, options);
}

/** decodeFrame for a frame that must come from the master (the simulated meter's input). */
export function decodeRequest(frame: Dlt645Frame, options: DecodeOptions = {}): Dlt645Decoded {
  if ((frame.control & 0x80) !== 0)
    fail("bad-direction", "expected a master request (D7 = 0), got a meter reply");
  return decodeFrame(frame, options);
}

function decodeMessage(data: Uint8Array, control: ControlInfo, warnings: string[]): Dlt645Message {
  const reply = control.direction === "meter->master";
  if (reply && control.abnormal) {
    if (data.length !== 1) warnings.push(`abnormal reply should carry 1 ERR byte, has ${data.length}`);
    return { kind: "error-reply", error: decodeErrorByte(data[0] ?? 0, control.version) };
  }
  const fn = control.function;
  if (fn === Fn2007.BROADCAST_TIME) {
    if (data.length !== 6) warnings.push(`broadcast time should carry 6 bytes, has ${data.length}`);
    const time = decodeDateTime("YYMMDDhhmmss", data.subarray(0, 6));
    return { kind: "broadcast-time", time: time.value, timeStatus: time.status };
  }
  if (control.version === "2007") {
    if (fn === Fn2007.READ) return decodeRead(data, "2007", reply, control.followUp, warnings);
    if (fn === Fn2007.READ_FOLLOW_UP) return decodeFollowUp(data, "2007", reply, control.followUp, warnings);
    if (fn === Fn2007.READ_ADDRESS) {
      return reply
        ? { kind: "read-address-reply", address: decodeAddress(data.subarray(0, 6)) }
        : { kind: "read-address-request" };
    }
    if (fn === Fn2007.WRITE) return reply ? { kind: "write-ack" } : decodeWrite(data, "2007", warnings);
    if (fn === Fn2007.RELAY_CONTROL) {
      if (reply) return { kind: "relay-control-ack" };
      if (data.length !== RELAY_DATA_LENGTH)
        warnings.push(`relay control should carry 16 bytes, has ${data.length}`);
      return { kind: "relay-control-request", relay: decodeRelayControl(data) };
    }
  } else {
    if (fn === Fn1997.READ || fn === Fn1997.REREAD)
      return decodeRead(data, "1997", reply, control.followUp, warnings);
    if (fn === Fn1997.READ_FOLLOW_UP) return decodeFollowUp(data, "1997", reply, control.followUp, warnings);
    if (fn === Fn1997.WRITE) return reply ? { kind: "write-ack" } : decodeWrite(data, "1997", warnings);
  }
  return { kind: "other", data: toHex(data) };
}

function decodeRead(
  data: Uint8Array,
  version: Dlt645Version,
  reply: boolean,
  followUp: boolean,
  warnings: string[],
): Dlt645Message {
  let diVersion = version;
  // Some libraries (peace0phmind/dlt645) send a 1997 2-byte DI with the 2007 read code 0x11.
  if (version === "2007" && !reply && data.length === 2) {
    diVersion = "1997";
    warnings.push(
      "2-byte (1997) data identifier sent with the 2007 read code 0x11; a 1997 meter expects C=0x01",
    );
  }
  const size = diLength(diVersion);
  if (data.length < size) {
    warnings.push(`read frame too short for a ${size}-byte data identifier`);
    return { kind: "other", data: toHex(data) };
  }
  const di = decodeDi(data.subarray(0, size));
  const item = lookupDataItem(di, diVersion);
  const name = item?.name ?? null;
  if (!reply)
    return { kind: "read-request", di, name, extra: data.length > size ? toHex(data.subarray(size)) : null };
  const value = data.subarray(size);
  const decoded = decodeDataItem(item, value);
  warnings.push(...decoded.warnings);
  const message: Dlt645Message = { kind: "read-reply", di, name, fields: decoded.fields, followUp };
  if (version === "2007" && di === "04000503" && value.length >= 2)
    message.statusWord3 = statusWord3FromWire(value);
  return message;
}

function decodeFollowUp(
  data: Uint8Array,
  version: Dlt645Version,
  reply: boolean,
  followUp: boolean,
  warnings: string[],
): Dlt645Message {
  const size = diLength(version);
  if (data.length < size + 1) {
    warnings.push("follow-up frame too short for a data identifier and SEQ");
    return { kind: "other", data: toHex(data) };
  }
  const di = decodeDi(data.subarray(0, size));
  const item = lookupDataItem(di, version);
  const seq = data[data.length - 1]!;
  if (!reply) return { kind: "read-follow-up-request", di, name: item?.name ?? null, seq };
  // Follow-up frames carry a slice of a long record, so only the raw bytes are reliable.
  const decoded = decodeDataItem(undefined, data.subarray(size, data.length - 1));
  return {
    kind: "read-follow-up-reply",
    di,
    name: item?.name ?? null,
    fields: decoded.fields,
    seq,
    followUp,
  };
}

function decodeWrite(data: Uint8Array, version: Dlt645Version, warnings: string[]): Dlt645Message {
  const size = diLength(version);
  // 2007: DI(4) PA P0..P2 C0..C3 data; 1997: DI(2) PA P0..P2 data (no operator code).
  const header = size + (version === "2007" ? 8 : 4);
  if (data.length < header) {
    warnings.push(`write frame too short for DI and password (${data.length} < ${header} bytes)`);
    return { kind: "other", data: toHex(data) };
  }
  const di = decodeDi(data.subarray(0, size));
  const item = lookupDataItem(di, version);
  const credentials = decodeCredentials(data.subarray(size, size + 8));
  const decoded = decodeDataItem(item, data.subarray(header));
  warnings.push(...decoded.warnings);
  return {
    kind: "write-request",
    di,
    name: item?.name ?? null,
    passwordLevel: credentials.passwordLevel,
    password: credentials.password,
    operator: version === "2007" ? credentials.operator : null,
    fields: decoded.fields,
  };
}
