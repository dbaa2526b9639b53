import type { Csd, Data, DateTime, DateTimeS, Rsd, Sid, Ti } from "./axdr.ts";

/**
 * DL/T 698.45 APDUs (§7.2 and appendix A): the LINK, GET, SET, ACTION, REPORT, SECURITY and
 * ERROR services a master and a meter exchange. Each is a typed value; encodeApdu and
 * decodeApdu are exact inverses (roundtrip-properties.test.ts). Services outside this list
 * (CONNECT, RELEASE, PROXY, GET-Record-List's siblings) decode as `other` with their bytes.
 */
export const ServiceTag = {
  LINK_REQUEST: 0x01,
  CONNECT_REQUEST: 0x02,
  RELEASE_REQUEST: 0x03,
  GET_REQUEST: 0x05,
  SET_REQUEST: 0x06,
  ACTION_REQUEST: 0x07,
  REPORT_RESPONSE: 0x08,
  PROXY_REQUEST: 0x09,
  SECURITY_REQUEST: 0x10,
  LINK_RESPONSE: 0x81,
  CONNECT_RESPONSE: 0x82,
  RELEASE_RESPONSE: 0x83,
  RELEASE_NOTIFICATION: 0x84,
  GET_RESPONSE: 0x85,
  SET_RESPONSE: 0x86,
  ACTION_RESPONSE: 0x87,
  REPORT_NOTIFICATION: 0x88,
  PROXY_RESPONSE: 0x89,
  SECURITY_RESPONSE: 0x90,
  ERROR_RESPONSE: 0xee,
} as const;

/** Time tag of a request (§7.2.1): send time and how long the request stays valid. */
export interface TimeTag {
  sent: DateTimeS;
  validFor: Ti;
}

/** Result of reading one attribute: the data, or a DAR (data access result) code. */
export type GetResult = { data: Data } | { dar: number };
export interface ResultNormal {
  oad: string;
  result: GetResult;
}
export interface ResultRecord {
  oad: string;
  columns: Csd[];
  /** DAR, or rows of one Data per column. */
  result: { dar: number } | { rows: Data[][] };
}
export type FollowReport = { results: ResultNormal[] } | { records: ResultRecord[] };
export interface RecordRequest {
  oad: string;
  rsd: Rsd;
  columns: Csd[];
}
export type LinkRequestType = "login" | "heartbeat" | "logout";
export type LinkResultCode = "success" | "address-duplicate" | "illegal-device" | "capacity-insufficient";

export interface Req {
  /** PIID: bit 7 priority, bits 0–5 service sequence number. */
  piid: number;
  timeTag: TimeTag | null;
}
export interface Res {
  /** PIID-ACD: bit 7 priority, bit 6 "server asks for access", bits 0–5 sequence number. */
  piid: number;
  followReport: FollowReport | null;
  timeTag: TimeTag | null;
}

export type SecurityVerification =
  | { kind: "sid-mac"; sid: Sid; mac: string }
  | { kind: "rn"; rn: string }
  | { kind: "rn-mac"; rn: string; mac: string }
  | { kind: "sid"; sid: Sid };

export type Apdu =
  | {
      service: "link-request";
      piid: number;
      requestType: LinkRequestType;
      heartbeatSeconds: number;
      time: DateTime;
    }
  | {
      service: "link-response";
      piid: number;
      clockTrusted: boolean;
      result: LinkResultCode;
      requestTime: DateTime;
      receivedTime: DateTime;
      responseTime: DateTime;
    }
  | ({ service: "get-request-normal"; oad: string } & Req)
  | ({ service: "get-request-normal-list"; oads: string[] } & Req)
  | ({ service: "get-request-record"; record: RecordRequest } & Req)
  | ({ service: "get-request-record-list"; records: RecordRequest[] } & Req)
  | ({ service: "get-request-next"; lastBlock: number } & Req)
  | ({ service: "set-request-normal"; oad: string; data: Data } & Req)
  | ({ service: "action-request-normal"; omd: string; data: Data } & Req)
  | ({ service: "report-response-list"; oads: string[] } & Req)
  | ({ service: "report-response-record-list"; oads: string[] } & Req)
  | ({ service: "get-response-normal"; result: ResultNormal } & Res)
  | ({ service: "get-response-normal-list"; results: ResultNormal[] } & Res)
  | ({ service: "get-response-record"; record: ResultRecord } & Res)
  | ({ service: "get-response-record-list"; records: ResultRecord[] } & Res)
  | ({
      service: "get-response-next";
      lastBlockFlag: boolean;
      block: number;
      body: { dar: number } | { results: ResultNormal[] } | { records: ResultRecord[] };
    } & Res)
  | ({ service: "set-response-normal"; oad: string; dar: number } & Res)
  | ({ service: "action-response-normal"; omd: string; dar: number; data: Data | null } & Res)
  | ({ service: "report-notification-list"; results: ResultNormal[] } & Res)
  | ({ service: "report-notification-record-list"; records: ResultRecord[] } & Res)
  | {
      service: "security-request";
      /** The protected APDU: plaintext or ciphertext, hex. */
      ciphered: boolean;
      data: string;
      verification: SecurityVerification;
    }
  | {
      service: "security-response";
      /** Plaintext or ciphertext APDU (hex), or the DAR of a refused request. */
      body: { ciphered: boolean; data: string } | { dar: number };
      /** The MAC over the answer, when the server sent one. */
      mac: string | null;
    }
  | { service: "error-response"; piid: number; errorType: number }
  | { service: "other"; tag: number; hex: string };

export type ServiceName = Apdu["service"];

/** The standard's names, for people: "GET-Response-Normal". */
export const SERVICE_TITLES: Record<ServiceName, string> = {
  "link-request": "LINK-Request",
  "link-response": "LINK-Response",
  "get-request-normal": "GET-Request-Normal",
  "get-request-normal-list": "GET-Request-NormalList",
  "get-request-record": "GET-Request-Record",
  "get-request-record-list": "GET-Request-RecordList",
  "get-request-next": "GET-Request-Next",
  "set-request-normal": "SET-Request-Normal",
  "action-request-normal": "ACTION-Request-Normal",
  "report-response-list": "REPORT-Response-List",
  "report-response-record-list": "REPORT-Response-RecordList",
  "get-response-normal": "GET-Response-Normal",
  "get-response-normal-list": "GET-Response-NormalList",
  "get-response-record": "GET-Response-Record",
  "get-response-record-list": "GET-Response-RecordList",
  "get-response-next": "GET-Response-Next",
  "set-response-normal": "SET-Response-Normal",
  "action-response-normal": "ACTION-Response-Normal",
  "report-notification-list": "REPORT-Notification-List",
  "report-notification-record-list": "REPORT-Notification-RecordList",
  "security-request": "SECURITY-Request",
  "security-response": "SECURITY-Response",
  "error-response": "ERROR-Response",
  other: "other",
};

export const LINK_TYPES: readonly LinkRequestType[] = ["login", "heartbeat", "logout"];
export const LINK_RESULTS: readonly LinkResultCode[] = [
  "success",
  "address-duplicate",
  "illegal-device",
  "capacity-insufficient",
];

/** Services the codec knows by tag but does not model (CONNECT, RELEASE, PROXY): kept as bytes. */
export const OTHER_SERVICES = new Set<number>([
  ServiceTag.CONNECT_REQUEST,
  ServiceTag.RELEASE_REQUEST,
  ServiceTag.PROXY_REQUEST,
  ServiceTag.CONNECT_RESPONSE,
  ServiceTag.RELEASE_RESPONSE,
  ServiceTag.RELEASE_NOTIFICATION,
  ServiceTag.PROXY_RESPONSE,
]);
