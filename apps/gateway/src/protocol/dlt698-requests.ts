import {
  type DecodedField,
  type dlt645,
  dlt698,
  isProtocolError,
  type SplitFrame,
} from "@meterline/protocols";
import type { PreparedRequest } from "../bus/bus.ts";
import type { MeterInfo, RelayAction } from "../model.ts";
import type { MeterReply } from "./requests.ts";

/**
 * DL/T 698.45 requests of the gateway: GET of a list of OADs and ACTION on remote control (8000)
 * and power hold (8001). A reply is taken only from the meter asked (server address), for the
 * same service and objects, with the PIID sequence the request carried, so a late reply to an
 * earlier request is never taken for the answer to this one.
 */

/** What a 698.45 meter says about its relay, in the terms status word 3 uses for DL/T 645. */
export interface RelayStatus {
  /** 8000 attribute 5, bit 0 (relay 1): the last command was a trip. */
  relayCommandOpen: boolean;
  /** F205 attribute 2, relay 1 "current state" = output: the relay is open. */
  relayOpen: boolean;
  /** 8001 attribute 2: power hold on (or automatic power hold). */
  powerHold: boolean;
  relay: dlt645.RelayState;
}

/** The OADs read to learn the relay state: command state, relay outputs, power hold. */
export const RELAY_STATUS_OADS = [
  dlt698.OAD.RELAY_COMMAND_STATE,
  dlt698.OAD.RELAY_OUTPUTS,
  dlt698.OAD.POWER_HOLD_STATE,
] as const;

const OAD_PATTERN = /^[0-9A-F]{8}$/;

/** The OADs of an item identifier: one OAD, or several joined by ",". Null when it is not that. */
export function parseOads(item: string): string[] | null {
  const oads = item.toUpperCase().split(",");
  return oads.length <= 16 && oads.every((oad) => OAD_PATTERN.test(oad)) ? oads : null;
}

type ServerApdu = dlt698.Apdu;

function decodeReply(meter: MeterInfo, frame: SplitFrame): ServerApdu | undefined {
  if (frame.protocol !== "dlt698") return undefined;
  try {
    const parsed = dlt698.parseFrame(frame.bytes, { maxFrameLength: frame.bytes.length });
    if (parsed.split || parsed.server.address !== meter.address) return undefined;
    return dlt698.decodeFromServer(parsed).apdu ?? undefined;
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

const sequenceOf = (piid: number) => piid & 0x3f;

/** The meter's reply carrying the request's PIID sequence, or undefined for any other frame. */
function answerTo(meter: MeterInfo, frame: SplitFrame, sequence: number) {
  const apdu = decodeReply(meter, frame);
  return apdu && "piid" in apdu && sequenceOf(apdu.piid) === sequence ? apdu : undefined;
}

function fieldsOf(result: dlt698.ResultNormal): DecodedField[] {
  const name = dlt698.oadName(result.oad) ?? result.oad;
  if ("dar" in result.result)
    return [
      { kind: "raw", name, status: "absent", raw: "", value: `DAR ${dlt698.darName(result.result.dar)}` },
    ];
  return dataFields(result.oad, result.result.data);
}

/** An attribute's Data as the decoded fields the gateway's readings are built from. */
function dataFields(oad: string, data: dlt698.Data): DecodedField[] {
  return dlt698.namedValues(oad, data).map((value): DecodedField => {
    if (value.scaled !== undefined && value.scale !== undefined && value.value !== null)
      return {
        kind: "number",
        name: value.name,
        status: "ok",
        raw: "",
        value: value.value,
        scaled: value.scaled,
        scale: value.scale,
        unit: value.unit ?? "",
      };
    return { kind: "raw", name: value.name, status: "ok", raw: "", value: value.value };
  });
}

function dataOf(results: readonly dlt698.ResultNormal[], oad: string): dlt698.Data | undefined {
  const found = results.find((result) => result.oad === oad)?.result;
  return found && "data" in found ? found.data : undefined;
}

/** The relay as 8000.5, F205.2 and 8001.2 show it; undefined without the command state. */
export function relayStatusOf(results: readonly dlt698.ResultNormal[]): RelayStatus | undefined {
  const command = dataOf(results, dlt698.OAD.RELAY_COMMAND_STATE);
  if (command?.type !== "bit-string") return undefined;
  const relayCommandOpen = command.bits[0] === "1";
  // Relay 1's unit is structure {descriptor, current state enum 0 no output / 1 output, …}.
  const outputs = dataOf(results, dlt698.OAD.RELAY_OUTPUTS);
  const first = outputs?.type === "array" ? outputs.items[0] : undefined;
  const state = first?.type === "structure" ? first.items[1] : undefined;
  const relayOpen = state?.type === "enum" ? state.value === 1 : relayCommandOpen;
  const hold = dataOf(results, dlt698.OAD.POWER_HOLD_STATE);
  const powerHold = hold?.type === "enum" ? hold.value !== 0 : false;
  const relay: dlt645.RelayState = relayOpen
    ? relayCommandOpen
      ? "open"
      : "close-pending"
    : relayCommandOpen
      ? "trip-pending"
      : "closed";
  return { relayCommandOpen, relayOpen, powerHold, relay };
}

function readReply(results: readonly dlt698.ResultNormal[]): MeterReply {
  if (results.every((result) => "dar" in result.result))
    return {
      kind: "error",
      detail: `error reply: ${results
        .map((result) => `${result.oad} ${dlt698.darName((result.result as { dar: number }).dar)}`)
        .join(", ")}`,
    };
  const relayStatus = relayStatusOf(results);
  return { kind: "read", fields: results.flatMap(fieldsOf), ...(relayStatus ? { relayStatus } : {}) };
}

function sameOads(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((oad, i) => oad === b[i]);
}

export function dlt698Get(
  meter: MeterInfo,
  oads: readonly string[],
  piid: number,
): PreparedRequest<MeterReply> {
  const sequence = sequenceOf(piid);
  const bytes = dlt698.buildGet(meter.address, oads, { piid: sequence, preamble: meter.model.preamble });
  return {
    bytes,
    address: meter.address,
    accept(frame) {
      const apdu = answerTo(meter, frame, sequence);
      if (!apdu) return undefined;
      if (apdu.service === "error-response")
        return { kind: "error", detail: `error response ${apdu.errorType}` };
      const results =
        apdu.service === "get-response-normal"
          ? [apdu.result]
          : apdu.service === "get-response-normal-list"
            ? apdu.results
            : undefined;
      if (
        !results ||
        !sameOads(
          results.map((result) => result.oad),
          oads,
        )
      )
        return undefined;
      return readReply(results);
    },
  };
}

/**
 * A GET-Record read as one item identifier: "<record OAD>#<n>:<column OAD>,<column OAD>…", the
 * n-th last record (RSD selector 9) with those columns — "50040200#1:20210200,00100200" is the
 * last daily freeze with its freeze time and forward active energy.
 */
export function recordItem(record: dlt698.RecordRequest): string {
  if (record.rsd.selector !== 9) throw new Error("only selector 9 (the n-th last record) has an item form");
  const columns = record.columns.map((column) => ("oad" in column ? column.oad : column.road.oad));
  return `${record.oad}#${record.rsd.last}:${columns.join(",")}`;
}

const RECORD_ITEM = /^([0-9A-F]{8})#(\d{1,3}):([0-9A-F]{8}(?:,[0-9A-F]{8}){0,15})$/;

/** The record request of an item identifier made by recordItem; null when it is not one. */
export function parseRecordItem(item: string): dlt698.RecordRequest | null {
  const match = RECORD_ITEM.exec(item.toUpperCase());
  if (!match) return null;
  const last = Number(match[2]);
  if (last < 1 || last > 255) return null;
  return dlt698.lastRecord(match[1]!, last, match[3]!.split(","));
}

/** The last daily freeze (5004) with its freeze time and forward active energy by tariff. */
export const DAILY_FROZEN_ITEM = recordItem(
  dlt698.lastRecord(dlt698.OAD.DAILY_FROZEN, 1, [dlt698.OAD.FREEZE_TIME, dlt698.OAD.FORWARD_ACTIVE_ENERGY]),
);

const columnOads = (columns: readonly dlt698.Csd[]) =>
  columns.map((column) =>
    "oad" in column ? column.oad : `${column.road.oad}:${column.road.oads.join(",")}`,
  );

/**
 * GET-Request-Record. The answer must come from the meter asked, carry the request's PIID
 * sequence and name the same record object and columns; its first row becomes the fields, column
 * by column. A DAR, or no row at all (a meter that has not frozen yet), is an error reply: the
 * item is missing from the reading, the rest of the poll goes on.
 */
export function dlt698GetRecord(
  meter: MeterInfo,
  record: dlt698.RecordRequest,
  piid: number,
): PreparedRequest<MeterReply> {
  const sequence = sequenceOf(piid);
  const bytes = dlt698.buildGetRecord(meter.address, record, {
    piid: sequence,
    preamble: meter.model.preamble,
  });
  const columns = columnOads(record.columns);
  return {
    bytes,
    address: meter.address,
    accept(frame) {
      const apdu = answerTo(meter, frame, sequence);
      if (!apdu) return undefined;
      if (apdu.service === "error-response")
        return { kind: "error", detail: `error response ${apdu.errorType}` };
      if (apdu.service !== "get-response-record" || apdu.record.oad !== record.oad) return undefined;
      const answer = apdu.record;
      if ("dar" in answer.result)
        return { kind: "error", detail: `error reply: ${record.oad} ${dlt698.darName(answer.result.dar)}` };
      if (!sameOads(columnOads(answer.columns), columns)) return undefined;
      const row = answer.result.rows[0];
      if (!row)
        return {
          kind: "error",
          detail: `no record: ${record.oad} has no row for the selection (no freeze yet?)`,
        };
      return { kind: "read", fields: row.flatMap((data, i) => dataFields(columns[i]!, data)) };
    },
  };
}

/**
 * Status word 1 of 2014 attribute 2 (array of bit-string(16), word 1 first) as the 4 hex digits
 * DL/T 645-2007 gives for 04000501, meaning the same. DL/T 698.45-2017 defines 电能表运行状态字1
 * bit by bit as DL/T 645-2007 appendix A table A.1 does (bit 1 demand method, bit 2 clock
 * battery, bit 3 reading battery, bit 4 active and bit 5 reactive power direction), and its
 * bit-string numbers bit 0 as the first bit on the wire, the most significant bit of the first
 * octet (A-XDR, as 8000 attribute 5 numbers relay 1). So 698 bit n is 645 bit n (value 1 << n):
 * "0010000000000000" (clock battery low) is "0004".
 */
export function statusWord1FromBits(bits: string): string | null {
  if (!/^[01]{16}$/.test(bits)) return null;
  let raw = 0;
  for (let n = 0; n < 16; n++) if (bits[n] === "1") raw |= 1 << n;
  return raw.toString(16).toUpperCase().padStart(4, "0");
}

function actionFrame(
  meter: MeterInfo,
  action: RelayAction,
  piid: number,
): { bytes: Uint8Array; omd: string } {
  const options = { piid, preamble: meter.model.preamble };
  switch (action) {
    case "trip":
      // Cut until a close command: no alarm delay, no automatic close.
      return {
        bytes: dlt698.buildTrip(meter.address, { durationMinutes: 0 }, options),
        omd: dlt698.OMD.TRIP,
      };
    case "close-allowed":
    case "close-direct":
      return {
        bytes: dlt698.buildClose(meter.address, action === "close-direct" ? "direct" : "allowed", options),
        omd: dlt698.OMD.CLOSE,
      };
    case "power-hold":
    case "power-hold-release":
      return {
        bytes: dlt698.buildPowerHold(meter.address, action === "power-hold", options),
        omd: action === "power-hold" ? dlt698.OMD.POWER_HOLD_ON : dlt698.OMD.POWER_HOLD_OFF,
      };
  }
}

/** ACTION on 8000 (trip / close) or 8001 (power hold); the answer's DAR says whether it was taken. */
export function dlt698Relay(
  meter: MeterInfo,
  action: RelayAction,
  piid: number,
): PreparedRequest<MeterReply> {
  const sequence = sequenceOf(piid);
  const { bytes, omd } = actionFrame(meter, action, sequence);
  return {
    bytes,
    address: meter.address,
    accept(frame) {
      const apdu = answerTo(meter, frame, sequence);
      if (!apdu) return undefined;
      if (apdu.service === "error-response")
        return { kind: "error", detail: `error response ${apdu.errorType}` };
      if (apdu.service !== "action-response-normal" || apdu.omd !== omd) return undefined;
      return apdu.dar === 0
        ? { kind: "ack" }
        : { kind: "error", detail: `error reply: ${dlt698.darName(apdu.dar)}` };
    },
  };
}
