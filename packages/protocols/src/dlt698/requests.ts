import { parseScaled } from "../decimal.ts";
import { fail } from "../errors.ts";
import { BROADCAST, type ServerAddress, toServerAddress } from "./address.ts";
import { type Apdu, encodeApdu, type RecordRequest, serviceSide, type TimeTag } from "./apdu.ts";
import type { Csd, Data, DateTime, DateTimeS, SidMac } from "./axdr.ts";
import { OAD, OMD } from "./catalogue.ts";
import { encodeControl, Fn } from "./control.ts";
import { buildFrame } from "./frame.ts";
import { type CipherPort, type SecurityMode, secureRequest } from "./security.ts";

/**
 * Master-side DL/T 698.45 builders: the requests the gateway sends (GET of a list of OADs,
 * SET, ACTION trip/close, the wallet operation) and its answers to a meter's LINK login and
 * heartbeat and to REPORT notifications.
 */
export interface Dlt698BuildOptions {
  /** Client address CA (the master's), 0 by default. */
  client?: number;
  /** PIID: bits 0–5 the sequence number the answer echoes, bit 7 high priority. */
  piid?: number;
  timeTag?: TimeTag | null;
  /** FE bytes in front. */
  preamble?: number;
  /** Send the APDU +0x33 (C bit 3); few meters ask for it. */
  scrambled?: boolean;
}

/** The control byte an APDU travels with: who sends it, who started the exchange, link or data. */
export function controlFor(apdu: Apdu, scrambled = false): number {
  const fromServer = serviceSide(apdu) === "server";
  const link = apdu.service === "link-request" || apdu.service === "link-response";
  // PRM: LINK and REPORT exchanges are started by the meter, everything else by the master.
  const serverStarted =
    link ||
    apdu.service === "report-notification-list" ||
    apdu.service === "report-notification-record-list" ||
    apdu.service === "report-response-list" ||
    apdu.service === "report-response-record-list";
  return encodeControl({
    direction: fromServer ? "server->client" : "client->server",
    initiator: serverStarted ? "server" : "client",
    function: link ? Fn.LINK : Fn.USER_DATA,
    scrambled,
  });
}

/** Any APDU in a frame with the right control byte. */
export function buildApduFrame(
  server: string | ServerAddress,
  apdu: Apdu,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildFrame({
    control: controlFor(apdu, options.scrambled),
    server,
    client: options.client,
    apdu: encodeApdu(apdu),
    preamble: options.preamble,
  });
}

const req = (options: Dlt698BuildOptions) => ({ piid: options.piid ?? 0, timeTag: options.timeTag ?? null });

/** GET-Request: Normal for one OAD, NormalList for several. */
export function getApdu(oads: readonly string[], options: Dlt698BuildOptions = {}): Apdu {
  if (oads.length === 0) fail("bad-argument", "GET needs at least one OAD");
  return oads.length === 1
    ? { service: "get-request-normal", oad: oads[0]!, ...req(options) }
    : { service: "get-request-normal-list", oads: [...oads], ...req(options) };
}

export function buildGet(
  server: string | ServerAddress,
  oads: readonly string[],
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildApduFrame(server, getApdu(oads, options), options);
}

/** GET-Request-Record: rows of a record object (frozen data, events) chosen by an RSD. */
export function buildGetRecord(
  server: string | ServerAddress,
  record: RecordRequest,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildApduFrame(server, { service: "get-request-record", record, ...req(options) }, options);
}

/**
 * The n-th last record of a record object (RSD selector 9, "上第 n 次记录"; n = 1 is the newest)
 * with the columns asked: e.g. the last daily freeze (50040200) with its freeze time (20210200)
 * and forward active energy (00100200).
 */
export function lastRecord(oad: string, last: number, columns: readonly string[]): RecordRequest {
  if (!Number.isInteger(last) || last < 1 || last > 255) fail("bad-argument", `record ${last} is not 1..255`);
  if (columns.length === 0) fail("bad-argument", "a record request needs at least one column");
  return { oad, rsd: { selector: 9, last }, columns: columns.map((column): Csd => ({ oad: column })) };
}

/** GET-Request-Next: the next block of a response the meter split at the application layer. */
export function buildGetNext(
  server: string | ServerAddress,
  lastBlock: number,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildApduFrame(server, { service: "get-request-next", lastBlock, ...req(options) }, options);
}

export function buildSet(
  server: string | ServerAddress,
  oad: string,
  data: Data,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildApduFrame(server, { service: "set-request-normal", oad, data, ...req(options) }, options);
}

export function actionApdu(omd: string, data: Data, options: Dlt698BuildOptions = {}): Apdu {
  return { service: "action-request-normal", omd, data, ...req(options) };
}

export function buildAction(
  server: string | ServerAddress,
  omd: string,
  data: Data,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildApduFrame(server, actionApdu(omd, data, options), options);
}

export interface TripInput {
  /** The relay, F2050201 (relay 1) by default. */
  relay?: string;
  /** Minutes the meter alarms before it trips (unsigned). */
  alarmDelayMinutes?: number;
  /** Minutes the supply stays cut; 0 = until a close command (long-unsigned). */
  durationMinutes?: number;
  /** Close again by itself when the duration ends. */
  autoClose?: boolean;
}

/** Parameter of 8000 method 129 (trip): array of structure {relay OAD, alarm delay, duration, auto close}. */
export function tripData(input: TripInput = {}): Data {
  return {
    type: "array",
    items: [
      {
        type: "structure",
        items: [
          { type: "oad", value: input.relay ?? OAD.RELAY_1 },
          { type: "unsigned", value: input.alarmDelayMinutes ?? 0 },
          { type: "long-unsigned", value: input.durationMinutes ?? 0 },
          { type: "bool", value: input.autoClose ?? false },
        ],
      },
    ],
  };
}

export type CloseMode = "allowed" | "direct";
/** Parameter of 8000 method 130 (close): array of structure {relay OAD, command enum: 0 close allowed, 1 close directly}. */
export function closeData(mode: CloseMode = "allowed", relay: string = OAD.RELAY_1): Data {
  return {
    type: "array",
    items: [
      {
        type: "structure",
        items: [
          { type: "oad", value: relay },
          { type: "enum", value: mode === "direct" ? 1 : 0 },
        ],
      },
    ],
  };
}

/**
 * ACTION 8000 trip. A meter in security mode refuses this in the clear: send it through
 * buildSecuredRequest with "cipher-sid-mac" (see security.ts).
 */
export function buildTrip(
  server: string | ServerAddress,
  input: TripInput = {},
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildAction(server, OMD.TRIP, tripData(input), options);
}

export function buildClose(
  server: string | ServerAddress,
  mode: CloseMode = "allowed",
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildAction(server, OMD.CLOSE, closeData(mode), options);
}

/** ACTION 8001 power hold on / off (null parameter). */
export function buildPowerHold(
  server: string | ServerAddress,
  on: boolean,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildAction(server, on ? OMD.POWER_HOLD_ON : OMD.POWER_HOLD_OFF, { type: "null" }, options);
}

export type WalletOperation = "open-account" | "recharge" | "refund";
export interface WalletInput {
  operation: WalletOperation;
  /** Yuan with up to 2 decimals ("100.00"); travels in fen. */
  amount: string;
  /** The purchase count after this operation (the meter refuses a count out of step: DAR 25). */
  purchaseCount: number;
  /** Customer number (户号) as hex bytes, as the meter stores it in 4003. */
  customerNumber: string;
  /** SID and MAC over the recharge data, computed by the cipher machine for this meter. */
  sidMac: SidMac;
  /** Meter number (表号) as hex bytes, 4002. */
  meterNumber: string;
}

/**
 * Parameter of the ESAM wallet operation (F100 method WALLET_METHOD): structure {operation
 * integer 0 open / 1 recharge / 2 refund, amount double-long-unsigned in fen, purchase count,
 * customer number, SID_MAC, meter number}. The standard requires it under security transfer
 * (ciphertext + SID_MAC): wrap it with buildSecuredRequest, never send it in the clear.
 */
export function walletData(input: WalletInput): Data {
  const operation = ["open-account", "recharge", "refund"].indexOf(input.operation);
  if (operation < 0) fail("bad-argument", `unknown wallet operation "${input.operation}"`);
  const fen = parseScaled(input.amount, 2);
  if (fen < 0n || fen > 0xffffffffn) fail("bad-argument", `amount ${input.amount} is out of range`);
  return {
    type: "structure",
    items: [
      { type: "integer", value: operation },
      { type: "double-long-unsigned", value: Number(fen) },
      { type: "double-long-unsigned", value: input.purchaseCount },
      { type: "octet-string", hex: input.customerNumber.toUpperCase() },
      { type: "sid-mac", value: input.sidMac },
      { type: "octet-string", hex: input.meterNumber.toUpperCase() },
    ],
  };
}

export function walletApdu(input: WalletInput, options: Dlt698BuildOptions = {}): Apdu {
  return actionApdu(OMD.WALLET_OPERATION, walletData(input), options);
}

/** Wrap a client APDU in a SECURITY-Request through the cipher port, then frame it. */
export async function buildSecuredRequest(
  server: string | ServerAddress,
  apdu: Apdu,
  port: CipherPort,
  mode: SecurityMode,
  options: Dlt698BuildOptions = {},
): Promise<Uint8Array> {
  const secured = await secureRequest(apdu, port, toServerAddress(server), mode);
  return buildApduFrame(server, secured, options);
}

/**
 * Broadcast time (DL/T 698.45 class 8 "date and time" 4000, method 127 广播校时, parameter
 * date_time_s): ACTION-Request-Normal on OMD 40007F00 to the broadcast address (SA type 3, "AA",
 * §7.1.3). Every 698.45 meter on the line takes it and none answers; DL/T 645 meters on the same
 * line ignore the frame (no 645 frame parses from it).
 */
export function buildBroadcastTime(time: DateTimeS, options: Dlt698BuildOptions = {}): Uint8Array {
  return buildAction(BROADCAST, OMD.BROADCAST_TIME, { type: "date-time-s", value: time }, options);
}

export interface LinkAnswerInput {
  /** The meter's LINK-Request, decoded. */
  request: Extract<Apdu, { service: "link-request" }>;
  /** When the master received the request. */
  receivedAt: DateTime;
  /** When it answers; the receive time by default. */
  respondedAt?: DateTime;
  /** Whether the master's clock is trustworthy (result bit 7); true by default. */
  clockTrusted?: boolean;
}

/**
 * LINK-Response to a login, heartbeat or logout: same PIID, result "success", the request time
 * echoed, then the receive and response times (the meter uses them to judge its clock).
 */
export function buildLinkResponse(
  server: string | ServerAddress,
  input: LinkAnswerInput,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  return buildApduFrame(
    server,
    {
      service: "link-response",
      piid: input.request.piid,
      clockTrusted: input.clockTrusted ?? true,
      result: "success",
      requestTime: input.request.time,
      receivedTime: input.receivedAt,
      responseTime: input.respondedAt ?? input.receivedAt,
    },
    options,
  );
}

/** REPORT-Response confirming the OADs of a REPORT-Notification (same PIID). */
export function buildReportResponse(
  server: string | ServerAddress,
  notification: Extract<Apdu, { service: "report-notification-list" | "report-notification-record-list" }>,
  options: Dlt698BuildOptions = {},
): Uint8Array {
  const list = notification.service === "report-notification-list";
  const oads = list ? notification.results.map((r) => r.oad) : notification.records.map((r) => r.oad);
  return buildApduFrame(
    server,
    {
      service: list ? "report-response-list" : "report-response-record-list",
      oads,
      piid: notification.piid & 0xbf,
      timeTag: options.timeTag ?? null,
    },
    options,
  );
}

/** A JavaScript Date as a 698 date_time in the given clock (local by default; meters keep Beijing time). */
export function dateTimeOf(date: Date, utc = false): DateTime {
  const get = (local: () => number, inUtc: () => number) => (utc ? inUtc() : local());
  return {
    year: get(
      () => date.getFullYear(),
      () => date.getUTCFullYear(),
    ),
    month:
      get(
        () => date.getMonth(),
        () => date.getUTCMonth(),
      ) + 1,
    day: get(
      () => date.getDate(),
      () => date.getUTCDate(),
    ),
    weekday: get(
      () => date.getDay(),
      () => date.getUTCDay(),
    ),
    hour: get(
      () => date.getHours(),
      () => date.getUTCHours(),
    ),
    minute: get(
      () => date.getMinutes(),
      () => date.getUTCMinutes(),
    ),
    second: get(
      () => date.getSeconds(),
      () => date.getUTCSeconds(),
    ),
    milliseconds: get(
      () => date.getMilliseconds(),
      () => date.getUTCMilliseconds(),
    ),
  };
}
