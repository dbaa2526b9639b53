import type { ServerAddress } from "./address.ts";
import type { LinkRequestType, ResultNormal, ResultRecord, TimeTag } from "./apdu.ts";
import type { Data, DateTime } from "./axdr.ts";
import { buildApduFrame } from "./requests.ts";

/**
 * Meter-side DL/T 698.45 builders for the simulated fleet: LINK login / heartbeat / logout,
 * GET / SET / ACTION responses, REPORT notifications and the ERROR response.
 */
export interface Dlt698ReplyOptions {
  client?: number;
  /** PIID-ACD: echo the request's PIID. */
  piid?: number;
  timeTag?: TimeTag | null;
  preamble?: number;
  scrambled?: boolean;
}

const res = (options: Dlt698ReplyOptions) => ({
  piid: options.piid ?? 0,
  followReport: null,
  timeTag: options.timeTag ?? null,
});

export interface LinkRequestInput {
  type: LinkRequestType;
  /** Heartbeat period the meter announces, seconds. */
  heartbeatSeconds: number;
  time: DateTime;
}

export function buildLinkRequest(
  server: string | ServerAddress,
  input: LinkRequestInput,
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(
    server,
    {
      service: "link-request",
      piid: options.piid ?? 0,
      requestType: input.type,
      heartbeatSeconds: input.heartbeatSeconds,
      time: input.time,
    },
    options,
  );
}

/** GET-Response: Normal for one result, NormalList for several. */
export function buildGetResponse(
  server: string | ServerAddress,
  results: readonly ResultNormal[],
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(
    server,
    results.length === 1
      ? { service: "get-response-normal", result: results[0]!, ...res(options) }
      : { service: "get-response-normal-list", results: [...results], ...res(options) },
    options,
  );
}

export function buildGetRecordResponse(
  server: string | ServerAddress,
  record: ResultRecord,
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(server, { service: "get-response-record", record, ...res(options) }, options);
}

export function buildSetResponse(
  server: string | ServerAddress,
  oad: string,
  dar: number,
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(server, { service: "set-response-normal", oad, dar, ...res(options) }, options);
}

export function buildActionResponse(
  server: string | ServerAddress,
  omd: string,
  dar: number,
  data: Data | null = null,
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(
    server,
    { service: "action-response-normal", omd, dar, data, ...res(options) },
    options,
  );
}

/** REPORT-Notification-List: what the meter reports by itself (events, follow-up data). */
export function buildReportNotification(
  server: string | ServerAddress,
  results: readonly ResultNormal[],
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(
    server,
    { service: "report-notification-list", results: [...results], ...res(options) },
    options,
  );
}

/** ERROR-Response: 1 APDU cannot be parsed, 2 service not supported, 255 other. */
export function buildErrorResponse(
  server: string | ServerAddress,
  errorType: number,
  options: Dlt698ReplyOptions = {},
): Uint8Array {
  return buildApduFrame(server, { service: "error-response", piid: options.piid ?? 0, errorType }, options);
}
