import { fail } from "../errors.ts";
import {
  type Apdu,
  type FollowReport,
  LINK_RESULTS,
  LINK_TYPES,
  OTHER_SERVICES,
  type RecordRequest,
  type ResultNormal,
  type ResultRecord,
  type SecurityVerification,
  type ServiceName,
  ServiceTag,
  type TimeTag,
} from "./apdu-types.ts";
import {
  type DateTime,
  Writer,
  writeData,
  writeDateTime,
  writeDateTimeS,
  writeOad,
  writeOctets,
  writeRcsd,
  writeRsd,
  writeSid,
  writeTi,
} from "./axdr.ts";

/** Encoding of the APDUs of apdu-types.ts; decodeApdu (apdu-decode.ts) is its exact inverse. */
export { decodeApdu } from "./apdu-decode.ts";
export * from "./apdu-types.ts";

function checkByte(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xff)
    fail("bad-argument", `${what} ${value} is not a byte`);
  return value;
}
function checkU16(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff)
    fail("bad-argument", `${what} ${value} is not 0..65535`);
  return value;
}
function writeTimeTag(w: Writer, tag: TimeTag | null): void {
  if (!tag) {
    w.u8(0);
    return;
  }
  w.u8(1);
  writeDateTimeS(w, tag.sent);
  writeTi(w, tag.validFor);
}
function writeResultNormal(w: Writer, item: ResultNormal): void {
  writeOad(w, item.oad);
  if ("dar" in item.result) w.u8(0).u8(checkByte(item.result.dar, "DAR"));
  else writeData(w.u8(1), item.result.data);
}
function writeResultRecord(w: Writer, item: ResultRecord): void {
  writeOad(w, item.oad);
  writeRcsd(w, item.columns);
  if ("dar" in item.result) {
    w.u8(0).u8(checkByte(item.result.dar, "DAR"));
    return;
  }
  w.u8(1).axdrLength(item.result.rows.length);
  for (const row of item.result.rows) {
    if (row.length !== item.columns.length)
      fail("bad-argument", `a record row has ${row.length} values for ${item.columns.length} columns`);
    for (const cell of row) writeData(w, cell);
  }
}
function writeList<T>(w: Writer, items: readonly T[], write: (w: Writer, item: T) => void): void {
  w.axdrLength(items.length);
  for (const item of items) write(w, item);
}
function writeFollowReport(w: Writer, report: FollowReport | null): void {
  if (!report) {
    w.u8(0);
    return;
  }
  if ("results" in report) writeList(w.u8(1).u8(1), report.results, writeResultNormal);
  else writeList(w.u8(1).u8(2), report.records, writeResultRecord);
}
function writeRecordRequest(w: Writer, record: RecordRequest): void {
  writeOad(w, record.oad);
  writeRsd(w, record.rsd);
  writeRcsd(w, record.columns);
}
function writeVerification(w: Writer, v: SecurityVerification): void {
  switch (v.kind) {
    case "sid-mac":
      writeSid(w.u8(0), v.sid);
      writeOctets(w, v.mac, "MAC");
      return;
    case "rn":
      writeOctets(w.u8(1), v.rn, "RN");
      return;
    case "rn-mac":
      writeOctets(w.u8(2), v.rn, "RN");
      writeOctets(w, v.mac, "MAC");
      return;
    case "sid":
      writeSid(w.u8(3), v.sid);
      return;
    default:
      fail("bad-argument", "unknown security verification");
  }
}
function writeDateTimeField(w: Writer, value: DateTime): void {
  writeDateTime(w, value);
}

export function encodeApdu(apdu: Apdu): Uint8Array {
  const w = new Writer();
  const piid = "piid" in apdu ? checkByte(apdu.piid, "PIID") : 0;
  switch (apdu.service) {
    case "link-request":
      w.u8(ServiceTag.LINK_REQUEST).u8(piid).u8(LINK_TYPES.indexOf(apdu.requestType));
      if (!LINK_TYPES.includes(apdu.requestType))
        fail("bad-argument", `unknown LINK request "${apdu.requestType}"`);
      w.u16(checkU16(apdu.heartbeatSeconds, "heartbeat period"));
      writeDateTimeField(w, apdu.time);
      return w.done();
    case "link-response": {
      const code = LINK_RESULTS.indexOf(apdu.result);
      if (code < 0) fail("bad-argument", `unknown LINK result "${apdu.result}"`);
      w.u8(ServiceTag.LINK_RESPONSE)
        .u8(piid)
        .u8((apdu.clockTrusted ? 0x80 : 0) | code);
      writeDateTimeField(w, apdu.requestTime);
      writeDateTimeField(w, apdu.receivedTime);
      writeDateTimeField(w, apdu.responseTime);
      return w.done();
    }
    case "get-request-normal":
      writeOad(w.u8(ServiceTag.GET_REQUEST).u8(1).u8(piid), apdu.oad);
      break;
    case "get-request-normal-list":
      w.u8(ServiceTag.GET_REQUEST).u8(2).u8(piid);
      writeList(w, apdu.oads, (x, oad) => writeOad(x, oad));
      break;
    case "get-request-record":
      writeRecordRequest(w.u8(ServiceTag.GET_REQUEST).u8(3).u8(piid), apdu.record);
      break;
    case "get-request-record-list":
      writeList(w.u8(ServiceTag.GET_REQUEST).u8(4).u8(piid), apdu.records, writeRecordRequest);
      break;
    case "get-request-next":
      w.u8(ServiceTag.GET_REQUEST).u8(5).u8(piid).u16(checkU16(apdu.lastBlock, "block number"));
      break;
    case "set-request-normal":
      writeOad(w.u8(ServiceTag.SET_REQUEST).u8(1).u8(piid), apdu.oad);
      writeData(w, apdu.data);
      break;
    case "action-request-normal":
      writeOad(w.u8(ServiceTag.ACTION_REQUEST).u8(1).u8(piid), apdu.omd, "OMD");
      writeData(w, apdu.data);
      break;
    case "report-response-list":
    case "report-response-record-list":
      w.u8(ServiceTag.REPORT_RESPONSE)
        .u8(apdu.service === "report-response-list" ? 1 : 2)
        .u8(piid);
      writeList(w, apdu.oads, (x, oad) => writeOad(x, oad));
      break;
    case "get-response-normal":
      writeResultNormal(w.u8(ServiceTag.GET_RESPONSE).u8(1).u8(piid), apdu.result);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "get-response-normal-list":
      writeList(w.u8(ServiceTag.GET_RESPONSE).u8(2).u8(piid), apdu.results, writeResultNormal);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "get-response-record":
      writeResultRecord(w.u8(ServiceTag.GET_RESPONSE).u8(3).u8(piid), apdu.record);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "get-response-record-list":
      writeList(w.u8(ServiceTag.GET_RESPONSE).u8(4).u8(piid), apdu.records, writeResultRecord);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "get-response-next": {
      w.u8(ServiceTag.GET_RESPONSE)
        .u8(5)
        .u8(piid)
        .u8(apdu.lastBlockFlag ? 1 : 0);
      w.u16(checkU16(apdu.block, "block number"));
      const body = apdu.body;
      if ("dar" in body) w.u8(0).u8(checkByte(body.dar, "DAR"));
      else if ("results" in body) writeList(w.u8(1), body.results, writeResultNormal);
      else writeList(w.u8(2), body.records, writeResultRecord);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    }
    case "set-response-normal":
      writeOad(w.u8(ServiceTag.SET_RESPONSE).u8(1).u8(piid), apdu.oad);
      w.u8(checkByte(apdu.dar, "DAR"));
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "action-response-normal":
      writeOad(w.u8(ServiceTag.ACTION_RESPONSE).u8(1).u8(piid), apdu.omd, "OMD");
      w.u8(checkByte(apdu.dar, "DAR"));
      if (apdu.data) writeData(w.u8(1), apdu.data);
      else w.u8(0);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "report-notification-list":
      writeList(w.u8(ServiceTag.REPORT_NOTIFICATION).u8(1).u8(piid), apdu.results, writeResultNormal);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "report-notification-record-list":
      writeList(w.u8(ServiceTag.REPORT_NOTIFICATION).u8(2).u8(piid), apdu.records, writeResultRecord);
      return serverTrailer(w, apdu.followReport, apdu.timeTag);
    case "security-request":
      writeOctets(w.u8(ServiceTag.SECURITY_REQUEST).u8(apdu.ciphered ? 1 : 0), apdu.data, "protected APDU");
      writeVerification(w, apdu.verification);
      return w.done();
    case "security-response":
      w.u8(ServiceTag.SECURITY_RESPONSE);
      if ("dar" in apdu.body) w.u8(2).u8(checkByte(apdu.body.dar, "DAR"));
      else writeOctets(w.u8(apdu.body.ciphered ? 1 : 0), apdu.body.data, "protected APDU");
      if (apdu.mac === null) w.u8(0);
      else writeOctets(w.u8(1).u8(0), apdu.mac, "MAC");
      return w.done();
    case "error-response":
      return w.u8(ServiceTag.ERROR_RESPONSE).u8(piid).u8(checkByte(apdu.errorType, "error type")).done();
    case "other":
      if (!OTHER_SERVICES.has(apdu.tag))
        fail("bad-argument", `service tag 0x${apdu.tag.toString(16)} is not CONNECT, RELEASE or PROXY`);
      return w.u8(apdu.tag).hex(apdu.hex, "APDU").done();
    default:
      fail("bad-argument", `unknown service "${(apdu as { service: string }).service}"`);
  }
  writeTimeTag(w, apdu.timeTag);
  return w.done();
}

function serverTrailer(w: Writer, followReport: FollowReport | null, timeTag: TimeTag | null): Uint8Array {
  writeFollowReport(w, followReport);
  writeTimeTag(w, timeTag);
  return w.done();
}

const CLIENT_SERVICES = new Set<ServiceName>([
  "link-response",
  "get-request-normal",
  "get-request-normal-list",
  "get-request-record",
  "get-request-record-list",
  "get-request-next",
  "set-request-normal",
  "action-request-normal",
  "report-response-list",
  "report-response-record-list",
  "security-request",
]);

/** Whether a service is sent by the client (master) or by the server (meter). */
export function serviceSide(apdu: Apdu): "client" | "server" {
  if (apdu.service === "other") return apdu.tag & 0x80 ? "server" : "client";
  return CLIENT_SERVICES.has(apdu.service) ? "client" : "server";
}
