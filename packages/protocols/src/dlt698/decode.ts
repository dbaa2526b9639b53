import { fail, isProtocolError } from "../errors.ts";
import type { ServerAddress } from "./address.ts";
import { type Apdu, decodeApdu, type ResultNormal, type ResultRecord, SERVICE_TITLES } from "./apdu.ts";
import type { Csd } from "./axdr.ts";
import { darName, oadName, omdName } from "./catalogue.ts";
import { type Dlt698ControlInfo, decodeControl } from "./control.ts";
import type { Dlt698Frame, SplitHeader } from "./frame.ts";
import { type NamedValue, namedValues } from "./values.ts";

/**
 * A frame as the gateway and the field tool want it: the link header decoded, the APDU typed,
 * and every attribute it carries named with scaled values (catalogue.ts). A split block carries
 * only part of an APDU: `apdu` is null until SplitReassembler has all blocks.
 */
export interface AttributeView {
  /** 8 hex digits: an OAD, or an OMD for ACTION. */
  oad: string;
  name: string | null;
  dar: { code: number; name: string } | null;
  values: NamedValue[];
}

export interface Piid {
  raw: number;
  priority: "normal" | "high";
  /** PIID-ACD of server APDUs: the server asks for access (bit 6). */
  accessRequested: boolean;
  sequence: number;
}

export interface Dlt698Decoded {
  protocol: "dlt698";
  control: Dlt698ControlInfo;
  server: ServerAddress;
  client: number;
  split: SplitHeader | null;
  /** Standard name of the service, e.g. "GET-Response-Normal"; null for a split block. */
  service: string | null;
  apdu: Apdu | null;
  piid: Piid | null;
  attributes: AttributeView[];
  /** Why the APDU could not be decoded, when it could not. */
  apduError: string | null;
  warnings: string[];
}

export function decodePiid(raw: number): Piid {
  return {
    raw,
    priority: raw & 0x80 ? "high" : "normal",
    accessRequested: (raw & 0x40) !== 0,
    sequence: raw & 0x3f,
  };
}

const dar = (code: number) => ({ code, name: darName(code) });

// Views are built as whole literals: object spread is slow on these shapes (bench.ts).
function view(oad: string, name: string | null, darCode: number | null, values: NamedValue[]): AttributeView {
  return { oad, name, dar: darCode === null ? null : dar(darCode), values };
}

function resultView(item: ResultNormal): AttributeView {
  const result = item.result;
  return "dar" in result
    ? view(item.oad, oadName(item.oad), result.dar, [])
    : view(item.oad, oadName(item.oad), null, namedValues(item.oad, result.data));
}

function columnOad(csd: Csd): string {
  return "oad" in csd ? csd.oad : csd.road.oad;
}

function recordView(record: ResultRecord): AttributeView {
  if ("dar" in record.result) return view(record.oad, oadName(record.oad), record.result.dar, []);
  const values: NamedValue[] = [];
  record.result.rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      const column = record.columns[c];
      const oad = column ? columnOad(column) : record.oad;
      for (const value of namedValues(oad, cell)) {
        value.name = `row ${r + 1}: ${value.name}`;
        values.push(value);
      }
    });
  });
  return view(record.oad, oadName(record.oad), null, values);
}

/** Every attribute an APDU names, with values where it carries them. */
export function attributeViews(apdu: Apdu): AttributeView[] {
  const bare = (oad: string): AttributeView => view(oad, oadName(oad), null, []);
  const follow = "followReport" in apdu && apdu.followReport ? apdu.followReport : null;
  const followViews = follow
    ? "results" in follow
      ? follow.results.map(resultView)
      : follow.records.map(recordView)
    : [];
  const main = ((): AttributeView[] => {
    switch (apdu.service) {
      case "get-request-normal":
        return [bare(apdu.oad)];
      case "get-request-normal-list":
      case "report-response-list":
      case "report-response-record-list":
        return apdu.oads.map(bare);
      case "get-request-record":
        return [bare(apdu.record.oad)];
      case "get-request-record-list":
        return apdu.records.map((record) => bare(record.oad));
      case "set-request-normal":
        return [view(apdu.oad, oadName(apdu.oad), null, namedValues(apdu.oad, apdu.data))];
      case "action-request-normal":
        return [
          { oad: apdu.omd, name: omdName(apdu.omd), dar: null, values: namedValues(apdu.omd, apdu.data) },
        ];
      case "get-response-normal":
        return [resultView(apdu.result)];
      case "get-response-normal-list":
      case "report-notification-list":
        return apdu.results.map(resultView);
      case "get-response-record":
        return [recordView(apdu.record)];
      case "get-response-record-list":
      case "report-notification-record-list":
        return apdu.records.map(recordView);
      case "get-response-next": {
        const body = apdu.body;
        if ("dar" in body) return [];
        return "results" in body ? body.results.map(resultView) : body.records.map(recordView);
      }
      case "set-response-normal":
        return [view(apdu.oad, oadName(apdu.oad), apdu.dar, [])];
      case "action-response-normal":
        return [
          {
            oad: apdu.omd,
            name: omdName(apdu.omd),
            dar: dar(apdu.dar),
            values: apdu.data ? namedValues(apdu.omd, apdu.data) : [],
          },
        ];
      default:
        return [];
    }
  })();
  return followViews.length === 0 ? main : main.concat(followViews);
}

export function decodeFrame(frame: Dlt698Frame): Dlt698Decoded {
  const control = decodeControl(frame.control);
  const warnings: string[] = [];
  let apdu: Apdu | null = null;
  let apduError: string | null = null;
  const whole = frame.split === null;
  if (whole) {
    try {
      apdu = decodeApdu(frame.apdu);
    } catch (error) {
      if (!isProtocolError(error)) throw error;
      apduError = error.message;
    }
  } else if (control.split === false) warnings.push("split header without the split bit");
  if (apdu && apdu.service !== "other") {
    const expectLink = apdu.service === "link-request" || apdu.service === "link-response";
    if (expectLink !== (control.function === 1))
      warnings.push(`${SERVICE_TITLES[apdu.service]} sent with function code ${control.function}`);
  }
  return {
    protocol: "dlt698",
    control,
    server: frame.server,
    client: frame.client,
    split: frame.split,
    service: apdu
      ? apdu.service === "other"
        ? `service 0x${apdu.tag.toString(16).toUpperCase()}`
        : SERVICE_TITLES[apdu.service]
      : null,
    apdu,
    piid: apdu && "piid" in apdu ? decodePiid(apdu.piid) : null,
    attributes: apdu ? attributeViews(apdu) : [],
    apduError,
    warnings,
  };
}

function strict(frame: Dlt698Frame): Dlt698Decoded {
  const decoded = decodeFrame(frame);
  if (decoded.apduError) fail("bad-apdu", `DL/T 698.45: ${decoded.apduError}`);
  return decoded;
}

/** A frame the meter sent (DIR = 1): responses, LINK login/heartbeat, REPORT notifications. */
export function decodeFromServer(frame: Dlt698Frame): Dlt698Decoded {
  if ((frame.control & 0x80) === 0)
    fail("bad-direction", "expected a frame from the meter (DIR = 1), got one from the client");
  return strict(frame);
}

/** A frame the master sent (DIR = 0): requests, LINK responses, REPORT responses. */
export function decodeFromClient(frame: Dlt698Frame): Dlt698Decoded {
  if ((frame.control & 0x80) !== 0)
    fail("bad-direction", "expected a frame from the client (DIR = 0), got one from the meter");
  return strict(frame);
}
