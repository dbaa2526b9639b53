import { fail } from "../errors.ts";
import {
  type Apdu,
  type FollowReport,
  type GetResult,
  LINK_RESULTS,
  LINK_TYPES,
  OTHER_SERVICES,
  type RecordRequest,
  type Req,
  type Res,
  type ResultNormal,
  type ResultRecord,
  type SecurityVerification,
  ServiceTag,
  type TimeTag,
} from "./apdu-types.ts";
import {
  Reader,
  readData,
  readDateTime,
  readDateTimeS,
  readOad,
  readOctets,
  readRcsd,
  readRsd,
  readSid,
  readTi,
} from "./axdr.ts";

/** Decoding of the APDUs of apdu-types.ts; every read is bounded (axdr-io.ts Reader). */
export function decodeApdu(bytes: Uint8Array): Apdu {
  const r = new Reader(bytes);
  const apdu = readApdu(r);
  if (r.remaining !== 0) fail("bad-apdu", `${r.remaining} unexpected bytes after the APDU`, r.pos);
  return apdu;
}

function readTimeTag(r: Reader): TimeTag | null {
  // Some meters end the APDU without the time-tag flag; absent means "no time tag".
  if (r.remaining === 0) return null;
  const flag = r.u8("the time tag flag");
  if (flag === 0) return null;
  if (flag !== 1) fail("bad-apdu", `time tag flag ${flag} is neither 0 nor 1`, r.pos - 1);
  return { sent: readDateTimeS(r), validFor: readTi(r) };
}
function readFollowReport(r: Reader): FollowReport | null {
  if (r.remaining === 0) return null;
  const flag = r.u8("the follow report flag");
  if (flag === 0) return null;
  if (flag !== 1) fail("bad-apdu", `follow report flag ${flag} is neither 0 nor 1`, r.pos - 1);
  const choice = r.u8("a follow report");
  if (choice === 1) return { results: readList(r, 5, readResultNormal) };
  if (choice === 2) return { records: readList(r, 6, readResultRecord) };
  fail("bad-apdu", `follow report choice ${choice} is not 1 or 2`, r.pos - 1);
}
function readList<T>(r: Reader, minItemBytes: number, item: (r: Reader) => T): T[] {
  const n = r.count("a sequence", minItemBytes);
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}
function readOadList(r: Reader): string[] {
  return readList(r, 4, (x) => readOad(x));
}
function readGetResult(r: Reader): GetResult {
  const choice = r.u8("a Get-Result");
  if (choice === 0) return { dar: r.u8("a DAR") };
  if (choice === 1) return { data: readData(r) };
  fail("bad-apdu", `Get-Result choice ${choice} is neither DAR (0) nor Data (1)`, r.pos - 1);
}
function readResultNormal(r: Reader): ResultNormal {
  return { oad: readOad(r), result: readGetResult(r) };
}
function readResultRecord(r: Reader): ResultRecord {
  const oad = readOad(r);
  const columns = readRcsd(r);
  const choice = r.u8("a record result");
  if (choice === 0) return { oad, columns, result: { dar: r.u8("a DAR") } };
  if (choice !== 1) fail("bad-apdu", `record result choice ${choice} is neither DAR nor rows`, r.pos - 1);
  const rows = readList(r, Math.max(1, columns.length), (x) => columns.map(() => readData(x)));
  return { oad, columns, result: { rows } };
}
function readRecordRequest(r: Reader): RecordRequest {
  return { oad: readOad(r), rsd: readRsd(r), columns: readRcsd(r) };
}
function readVerification(r: Reader): SecurityVerification {
  const choice = r.u8("the security verification");
  switch (choice) {
    case 0:
      return { kind: "sid-mac", sid: readSid(r), mac: readOctets(r, "a MAC") };
    case 1:
      return { kind: "rn", rn: readOctets(r, "an RN") };
    case 2:
      return { kind: "rn-mac", rn: readOctets(r, "an RN"), mac: readOctets(r, "a MAC") };
    case 3:
      return { kind: "sid", sid: readSid(r) };
    default:
      fail("bad-apdu", `security verification choice ${choice} is not 0..3`, r.pos - 1);
  }
}

function readApdu(r: Reader): Apdu {
  const tag = r.u8("the service tag");
  if (tag === ServiceTag.LINK_REQUEST) {
    const piid = r.u8("PIID");
    const type = r.u8("the LINK request type");
    const requestType = LINK_TYPES[type];
    if (!requestType) fail("bad-apdu", `LINK request type ${type} is not 0..2`, r.pos - 1);
    return {
      service: "link-request",
      piid,
      requestType,
      heartbeatSeconds: r.u16("heartbeat"),
      time: readDateTime(r),
    };
  }
  if (tag === ServiceTag.LINK_RESPONSE) {
    const piid = r.u8("PIID");
    const result = r.u8("the LINK result");
    const code = LINK_RESULTS[result & 0x07];
    if (!code || (result & 0x78) !== 0)
      fail("bad-apdu", `LINK result 0x${result.toString(16)} is not defined`);
    return {
      service: "link-response",
      piid,
      clockTrusted: (result & 0x80) !== 0,
      result: code,
      requestTime: readDateTime(r),
      receivedTime: readDateTime(r),
      responseTime: readDateTime(r),
    };
  }
  if (tag === ServiceTag.SECURITY_REQUEST) {
    const choice = r.u8("the security data choice");
    if (choice > 1) fail("bad-apdu", `security data choice ${choice} is neither plaintext nor ciphertext`);
    return {
      service: "security-request",
      ciphered: choice === 1,
      data: readOctets(r, "the protected APDU"),
      verification: readVerification(r),
    };
  }
  if (tag === ServiceTag.SECURITY_RESPONSE) {
    const choice = r.u8("the security data choice");
    let body: { ciphered: boolean; data: string } | { dar: number };
    if (choice === 0 || choice === 1)
      body = { ciphered: choice === 1, data: readOctets(r, "the protected APDU") };
    else if (choice === 2) body = { dar: r.u8("a DAR") };
    else fail("bad-apdu", `security response choice ${choice} is not 0..2`, r.pos - 1);
    let mac: string | null = null;
    if (r.remaining > 0 && r.u8("the verification flag") === 1) {
      const kind = r.u8("the verification choice");
      if (kind !== 0) fail("bad-apdu", `security response verification ${kind} is not MAC (0)`, r.pos - 1);
      mac = readOctets(r, "a MAC");
    }
    return { service: "security-response", body, mac };
  }
  if (tag === ServiceTag.ERROR_RESPONSE)
    return { service: "error-response", piid: r.u8("PIID"), errorType: r.u8("the error type") };
  const choiceAt = r.pos;
  switch (tag) {
    case ServiceTag.GET_REQUEST:
    case ServiceTag.SET_REQUEST:
    case ServiceTag.ACTION_REQUEST:
    case ServiceTag.REPORT_RESPONSE:
      return readClientApdu(r, tag);
    case ServiceTag.GET_RESPONSE:
    case ServiceTag.SET_RESPONSE:
    case ServiceTag.ACTION_RESPONSE:
    case ServiceTag.REPORT_NOTIFICATION:
      return readServerApdu(r, tag);
    default:
      if (!OTHER_SERVICES.has(tag)) fail("bad-apdu", `unknown service tag 0x${tag.toString(16)}`, 0);
      r.pos = choiceAt;
      return { service: "other", tag, hex: r.hex(r.remaining, "").toUpperCase() };
  }
}

function unsupported(r: Reader, tag: number, choice: number): never {
  fail("bad-apdu", `service 0x${tag.toString(16)} choice ${choice} is not supported`, r.pos - 1);
}

function readClientApdu(r: Reader, tag: number): Apdu {
  const choice = r.u8("the service choice");
  const piid = r.u8("PIID");
  // Built whole, then the trailer filled in: spreading into a new object is slow on this union.
  const body = ((): Extract<Apdu, Req> => {
    if (tag === ServiceTag.GET_REQUEST) {
      if (choice === 1) return { piid, timeTag: null, service: "get-request-normal", oad: readOad(r) };
      if (choice === 2)
        return { piid, timeTag: null, service: "get-request-normal-list", oads: readOadList(r) };
      if (choice === 3)
        return { piid, timeTag: null, service: "get-request-record", record: readRecordRequest(r) };
      if (choice === 4)
        return {
          piid,
          timeTag: null,
          service: "get-request-record-list",
          records: readList(r, 6, readRecordRequest),
        };
      if (choice === 5)
        return {
          piid,
          timeTag: null,
          service: "get-request-next",
          lastBlock: r.u16("the last block number"),
        };
    } else if (tag === ServiceTag.SET_REQUEST) {
      if (choice === 1)
        return { piid, timeTag: null, service: "set-request-normal", oad: readOad(r), data: readData(r) };
    } else if (tag === ServiceTag.ACTION_REQUEST) {
      if (choice === 1)
        return {
          piid,
          timeTag: null,
          service: "action-request-normal",
          omd: readOad(r, "an OMD"),
          data: readData(r),
        };
    } else {
      if (choice === 1) return { piid, timeTag: null, service: "report-response-list", oads: readOadList(r) };
      if (choice === 2)
        return { piid, timeTag: null, service: "report-response-record-list", oads: readOadList(r) };
    }
    unsupported(r, tag, choice);
  })();
  body.timeTag = readTimeTag(r);
  return body;
}

function readServerApdu(r: Reader, tag: number): Apdu {
  const choice = r.u8("the service choice");
  const piid = r.u8("PIID-ACD");
  // Every server APDU ends with FollowReport OPTIONAL and TimeTag OPTIONAL (§7.2.1 SERVER-APDU).
  const body = ((): Extract<Apdu, Res> => {
    if (tag === ServiceTag.REPORT_NOTIFICATION) {
      if (choice === 1)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "report-notification-list",
          results: readList(r, 5, readResultNormal),
        };
      if (choice === 2)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "report-notification-record-list",
          records: readList(r, 6, readResultRecord),
        };
    } else if (tag === ServiceTag.GET_RESPONSE) {
      if (choice === 1)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "get-response-normal",
          result: readResultNormal(r),
        };
      if (choice === 2)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "get-response-normal-list",
          results: readList(r, 5, readResultNormal),
        };
      if (choice === 3)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "get-response-record",
          record: readResultRecord(r),
        };
      if (choice === 4)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "get-response-record-list",
          records: readList(r, 6, readResultRecord),
        };
      if (choice === 5) {
        const lastBlockFlag = r.u8("the last block flag") !== 0;
        const block = r.u16("the block number");
        const kind = r.u8("the block body choice");
        const next =
          kind === 0
            ? { dar: r.u8("a DAR") }
            : kind === 1
              ? { results: readList(r, 5, readResultNormal) }
              : kind === 2
                ? { records: readList(r, 6, readResultRecord) }
                : fail("bad-apdu", `GET-Response-Next body choice ${kind} is not 0..2`, r.pos - 1);
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "get-response-next",
          lastBlockFlag,
          block,
          body: next,
        };
      }
    } else if (tag === ServiceTag.SET_RESPONSE) {
      if (choice === 1)
        return {
          piid,
          followReport: null,
          timeTag: null,
          service: "set-response-normal",
          oad: readOad(r),
          dar: r.u8("a DAR"),
        };
    } else if (tag === ServiceTag.ACTION_RESPONSE && choice === 1) {
      const omd = readOad(r, "an OMD");
      const dar = r.u8("a DAR");
      const has = r.u8("the return data flag");
      if (has > 1) fail("bad-apdu", `return data flag ${has} is neither 0 nor 1`, r.pos - 1);
      return {
        piid,
        followReport: null,
        timeTag: null,
        service: "action-response-normal",
        omd,
        dar,
        data: has ? readData(r) : null,
      };
    }
    unsupported(r, tag, choice);
  })();
  body.followReport = readFollowReport(r);
  body.timeTag = readTimeTag(r);
  return body;
}
