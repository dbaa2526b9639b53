import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";
import { type DateTimeField, decodeField, type NumberField } from "../values.ts";
import { meterTypeName } from "./address.ts";
import { decodeControl, Fn } from "./control.ts";
import type { Cjt188Frame } from "./frame.ts";
import { decodeDi, diName } from "./identifiers.ts";
import type { Cjt188Decoded, Cjt188Message, MeterData } from "./messages.ts";
import { decodeAlarmAmounts, decodePriceTable, decodePriceWrite } from "./parameters.ts";
import { decodeStatus, type MeterStatus, STANDARD_STATUS_MAP, type StatusBitMap } from "./status.ts";
import { unitOf } from "./units.ts";
import { valveCommandName } from "./valve.ts";

export interface DecodeOptions {
  /** Per-model ST bit map (§2.3); the usual D1D0/D2 map by default. */
  statusMap?: StatusBitMap;
}

/** 901F payload after DI and SER: 4+1, 4+1, 7, 2 bytes. */
export const METER_DATA_LENGTH = 19;

export function decodeFrame(frame: Cjt188Frame, options: DecodeOptions = {}): Cjt188Decoded {
  const control = decodeControl(frame.control);
  const warnings: string[] = [];
  const map = options.statusMap ?? STANDARD_STATUS_MAP;
  const message = decodeMessage(
    frame.data,
    control.direction === "meter->master",
    control.abnormal,
    control.function,
    map,
    warnings,
  );
  return {
    protocol: "cjt188",
    meterType: frame.meterType,
    meterTypeName: meterTypeName(frame.meterType),
    address: frame.address,
    control,
    message,
    warnings,
  };
}

export function decodeReply(frame: Cjt188Frame, options: DecodeOptions = {}): Cjt188Decoded {
  if ((frame.control & 0x80) === 0)
    fail("bad-direction", "expected a meter reply (D7 = 1), got a master request");
  return decodeFrame(frame, options);
}

export function decodeRequest(frame: Cjt188Frame, options: DecodeOptions = {}): Cjt188Decoded {
  if ((frame.control & 0x80) !== 0)
    fail("bad-direction", "expected a master request (D7 = 0), got a meter reply");
  return decodeFrame(frame, options);
}

function statusAt(data: Uint8Array, at: number, map: StatusBitMap): MeterStatus | null {
  return data.length >= at + 2 ? decodeStatus(data[at]!, data[at + 1]!, map) : null;
}

function decodeMessage(
  data: Uint8Array,
  reply: boolean,
  abnormal: boolean,
  fn: number,
  map: StatusBitMap,
  warnings: string[],
): Cjt188Message {
  // Abnormal reply: L = 03, SER ST (cnblogs.com/cj94/p/18534595 quoting the 2004 text).
  if (reply && abnormal) {
    if (data.length !== 3)
      warnings.push(`abnormal reply should carry SER + ST (3 bytes), has ${data.length}`);
    return { kind: "error-reply", ser: data[0] ?? null, status: statusAt(data, 1, map) };
  }
  if (data.length < 3) {
    if (data.length > 0) warnings.push("data too short for DI and SER");
    return { kind: "other", data: toHex(data) };
  }
  const { di, order } = decodeDi(data[0]!, data[1]!);
  const base = { di, diOrder: order, name: diName(di), ser: data[2]! };
  const body = data.subarray(3);
  if (di === "A017") {
    if (!reply)
      return {
        kind: "valve-control-request",
        ...base,
        command: valveCommandName(body[0] ?? 0),
        commandCode: body[0] ?? 0,
      };
    return { kind: "valve-control-reply", ...base, status: statusAt(body, 0, map) };
  }
  if (fn === Fn.READ_ADDRESS || di === "810A")
    return { kind: reply ? "read-address-reply" : "read-address-request", ...base };
  if (fn === Fn.READ_DATA || fn === Fn.READ_KEY_VERSION) {
    if (!reply) return { kind: "read-data-request", ...base };
    const meterData = di === "901F" ? decodeMeterData(body, map, warnings) : null;
    const fields = meterData
      ? []
      : body.length > 0
        ? [decodeField("data", { kind: "raw", bytes: body.length }, body)]
        : [];
    const priceTable = di === "8102" ? decodePriceTable(body) : undefined;
    const alarmAmounts = di === "81F1" ? decodeAlarmAmounts(body) : undefined;
    return {
      kind: "read-data-reply",
      ...base,
      meterData,
      fields,
      ...(priceTable ? { priceTable } : {}),
      ...(alarmAmounts ? { alarmAmounts } : {}),
    };
  }
  if (!reply) {
    const priceWrite = di === "A010" ? decodePriceWrite(body) : undefined;
    const alarmAmounts = di === "A0F1" ? decodeAlarmAmounts(body) : undefined;
    return {
      kind: "write-request",
      ...base,
      data: toHex(body),
      ...(priceWrite ? { priceWrite } : {}),
      ...(alarmAmounts ? { alarmAmounts } : {}),
    };
  }
  return {
    kind: "write-reply",
    ...base,
    status: body.length === 2 ? statusAt(body, 0, map) : null,
    data: toHex(body),
  };
}

function decodeMeterData(body: Uint8Array, map: StatusBitMap, warnings: string[]): MeterData | null {
  if (body.length !== METER_DATA_LENGTH) {
    // Heat meters (T = 0x2x) answer 901F with a longer block (heat, power, flow, temperatures).
    warnings.push(
      `901F payload of ${body.length} bytes is not the ${METER_DATA_LENGTH}-byte water/gas layout`,
    );
    return null;
  }
  const volume = (name: string, at: number) =>
    decodeField(
      name,
      { kind: "number", bytes: 4, decimals: 2, unit: unitOf(body[at + 4]!) },
      body.subarray(at, at + 4),
    ) as NumberField;
  return {
    currentTotal: volume("current total", 0),
    settlementDayTotal: volume("settlement-day total", 5),
    time: decodeField(
      "meter time",
      { kind: "datetime", layout: "YYYYMMDDhhmmss" },
      body.subarray(10, 17),
    ) as DateTimeField,
    status: decodeStatus(body[17]!, body[18]!, map),
  };
}
