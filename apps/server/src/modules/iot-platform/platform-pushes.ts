import { createHash } from "node:crypto";
import { ctwingSignature, onenetSignature, type Platform, sameText } from "./platform-signing.ts";

/** A platform command's state as each platform's callbacks name it, in one vocabulary. */
export const PLATFORM_STATES = ["queued", "sent", "delivered", "executed", "failed", "expired"] as const;
export type PlatformState = (typeof PLATFORM_STATES)[number];

/** What one push carries: a meter's report (a transparent frame) or a command's new state. */
export type PushEvent =
  /** payload: a transparent frame (hex or Base64), or the platform's JSON service data. */
  | { kind: "report"; deviceId: string; at: Date; payload: string | Record<string, unknown> }
  | { kind: "command"; deviceId: string; commandId: string; state: PlatformState; at: Date };

/** A push as received: its raw body (signatures are over the bytes sent), headers and query. */
export interface ReceivedPush {
  body: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | undefined>;
}

/** The secrets a tenant's push is checked with (opened from pms_iot_platform). */
export interface PushSecrets {
  appId: string;
  appSecret: string;
  pushToken: string;
}

/** A verified push: a key that names it across the platform's retries, and its events. */
export interface VerifiedPush {
  key: string;
  events: PushEvent[];
}

export class PushRefused extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

const header = (push: ReceivedPush, name: string) => {
  const value = push.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const json = (text: string): Record<string, unknown> => {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new PushRefused(400, "body: not a JSON object");
};
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";
const timeOf = (value: unknown) => {
  const at = typeof value === "number" ? new Date(value) : new Date(text(value));
  return Number.isNaN(at.getTime()) ? new Date() : at;
};
/** IoTDA's compact UTC time, "20151212T121212Z". */
const iotdaTime = (value: unknown) => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text(value));
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : timeOf(value);
};

/** CTWing and IoTDA command results: SENT, DELIVERED, SUCCESSFUL, FAILED, TIMEOUT, EXPIRED, PENDING. */
const RESULT_STATES: Record<string, PlatformState> = {
  PENDING: "queued",
  SAVED: "queued",
  SENT: "sent",
  DELIVERED: "delivered",
  SUCCESSFUL: "executed",
  FAILED: "failed",
  TIMEOUT: "failed",
  CANCELED: "failed",
  EXPIRED: "expired",
};

/**
 * CTWing subscription push, signed as its API calls are: headers application, timestamp and
 * signature, HMAC-SHA1 under the application's secret over the key, the time and the body.
 * messageType dataReport carries payload.APPdata (Base64 of the meter's frame);
 * commandResponse carries the command (taskId) and result.resultCode.
 */
export function verifyCtwing(push: ReceivedPush, secrets: PushSecrets, now: Date): VerifiedPush {
  const application = header(push, "application");
  const timestamp = header(push, "timestamp");
  const signature = header(push, "signature");
  if (!application || !timestamp || !signature) throw new PushRefused(401, "signature headers missing");
  if (!sameText(application, secrets.appId)) throw new PushRefused(403, "unknown application");
  // A replayed push outside fifteen minutes of its signing time is refused like a forged one.
  if (!/^\d{13}$/.test(timestamp) || Math.abs(now.getTime() - Number(timestamp)) > 15 * 60_000)
    throw new PushRefused(401, "timestamp out of range");
  const expected = ctwingSignature({ application, timestamp, secret: secrets.appSecret, body: push.body });
  if (!sameText(expected, signature)) throw new PushRefused(401, "signature does not match");
  const body = json(push.body);
  const deviceId = text(body.deviceId);
  const at = timeOf(body.timestamp);
  const events: PushEvent[] = [];
  if (body.messageType === "dataReport") {
    // Transparent products push the frame in APPdata; products with a profile push its properties.
    const payload = body.payload;
    if (deviceId && isObject(payload))
      events.push({
        kind: "report",
        deviceId,
        at,
        payload: typeof payload.APPdata === "string" ? payload.APPdata : payload,
      });
  } else if (body.messageType === "commandResponse") {
    const result = body.result as { resultCode?: unknown } | undefined;
    const state = RESULT_STATES[text(result?.resultCode)];
    if (deviceId && state)
      events.push({ kind: "command", deviceId, commandId: text(body.taskId), state, at });
  }
  return { key: digest(push.body), events };
}

/** OneNET NB-IoT cached-command states (type 7 pushes): the numbers it reports, by name. */
const ONENET_COMMAND_STATES: Record<string, PlatformState> = {
  "1": "queued",
  "2": "sent",
  "3": "delivered",
  "4": "executed",
  "5": "failed",
  "6": "expired",
};

/**
 * OneNET push: a JSON body {msg, nonce, msg_signature}, the signature Base64(MD5(token + nonce +
 * msg)), msg as sent. msg type 1 is a data point (an NB-IoT meter's frame in value, hex), type 7 a
 * cached command's state change (uuid and status).
 */
export function verifyOnenet(push: ReceivedPush, secrets: PushSecrets): VerifiedPush {
  const body = json(push.body);
  const nonce = text(body.nonce);
  const signature = text(body.msg_signature);
  if (!nonce || !signature || body.msg === undefined)
    throw new PushRefused(401, "msg, nonce or signature missing");
  const msgText = typeof body.msg === "string" ? body.msg : JSON.stringify(body.msg);
  if (!sameText(onenetSignature(secrets.pushToken, nonce, msgText), signature))
    throw new PushRefused(401, "signature does not match");
  const messages = (() => {
    const value = typeof body.msg === "string" ? (JSON.parse(body.msg) as unknown) : body.msg;
    return (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
  })();
  const events: PushEvent[] = [];
  for (const msg of messages) {
    const deviceId = text(msg.imei) || text(msg.dev_name);
    const at = timeOf(msg.at);
    if (Number(msg.type) === 1 && (typeof msg.value === "string" || isObject(msg.value)) && deviceId)
      events.push({ kind: "report", deviceId, at, payload: msg.value });
    const state = ONENET_COMMAND_STATES[text(msg.status)];
    if (Number(msg.type) === 7 && state && deviceId)
      events.push({ kind: "command", deviceId, commandId: text(msg.uuid), state, at });
  }
  return { key: digest(msgText), events };
}

/** OneNET's URL verification: answers msg when signature = Base64(MD5(token + nonce + msg)). */
export function onenetHandshake(query: ReceivedPush["query"], secrets: PushSecrets): string {
  const { msg, nonce, signature } = query;
  if (!msg || !nonce || !signature) throw new PushRefused(401, "msg, nonce or signature missing");
  // The query's signature arrives URL-decoded; a "+" of Base64 may have become a space on the way.
  if (!sameText(onenetSignature(secrets.pushToken, nonce, msg), signature.replace(/ /g, "+")))
    throw new PushRefused(401, "signature does not match");
  return msg;
}

/**
 * IoTDA HTTP push. IoTDA authenticates itself to the application by TLS (the application's CA
 * loaded in the forwarding rule) and signs nothing in the body, so the rule's URL carries a
 * secret token of the tenant (?token=…), compared in constant time. Resources: device.message
 * report (content: the meter's frame, Base64) and device.command.status update (command_id, status).
 */
export function verifyIotda(push: ReceivedPush, secrets: PushSecrets): VerifiedPush {
  const token = push.query.token;
  if (!token) throw new PushRefused(401, "token missing");
  if (!sameText(token, secrets.pushToken)) throw new PushRefused(401, "token does not match");
  const body = json(push.body);
  const data = (body.notify_data ?? {}) as {
    header?: Record<string, unknown>;
    body?: Record<string, unknown>;
  };
  const deviceId = text(data.header?.device_id);
  const events: PushEvent[] = [];
  if (body.resource === "device.message" && typeof data.body?.content === "string" && deviceId)
    events.push({ kind: "report", deviceId, at: iotdaTime(body.event_time), payload: data.body.content });
  // A product with a profile reports its services' properties.
  if (body.resource === "device.property" && deviceId && Array.isArray(data.body?.services)) {
    const properties: Record<string, unknown> = {};
    for (const service of data.body.services as unknown[])
      if (isObject(service) && isObject(service.properties)) Object.assign(properties, service.properties);
    events.push({ kind: "report", deviceId, at: iotdaTime(body.event_time), payload: properties });
  }
  if (body.resource === "device.command.status" && deviceId) {
    const state = RESULT_STATES[text(data.body?.status)];
    if (state)
      events.push({
        kind: "command",
        deviceId,
        commandId: text(data.body?.command_id),
        state,
        at: iotdaTime(body.event_time),
      });
  }
  return { key: digest(push.body), events };
}

export function verifyPush(platform: Platform, push: ReceivedPush, secrets: PushSecrets, now: Date) {
  if (platform === "ctwing") return verifyCtwing(push, secrets, now);
  if (platform === "onenet") return verifyOnenet(push, secrets);
  return verifyIotda(push, secrets);
}
