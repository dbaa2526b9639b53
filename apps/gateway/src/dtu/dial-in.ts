import { dlt698, isProtocolError } from "@meterline/protocols";

/**
 * DL/T 698.45 meters with a built-in 4G module dial the gateway themselves: their first packet is
 * a LINK login request (§ link management) carrying the meter's server address, which names the
 * meter in the registry (its collector is the meter itself). Logins and heartbeats are answered
 * with a LINK response; the login only once the meter's source network is proven.
 */
export type LinkRequest = Extract<dlt698.Apdu, { service: "link-request" }>;

export type LoginMatch =
  | { status: "none" }
  | { status: "need-more" }
  | { status: "ok"; address: string; request: LinkRequest; length: number };

const NONE: LoginMatch = { status: "none" };

/** A 698.45 LINK request in a frame the meter sent, or undefined. */
export function linkRequestOf(frame: Uint8Array, maxFrameLength: number): LinkRequest | undefined {
  try {
    const parsed = dlt698.parseFrame(frame, { maxFrameLength });
    if (parsed.split) return undefined;
    const apdu = dlt698.decodeFromServer(parsed).apdu;
    return apdu?.service === "link-request" ? apdu : undefined;
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

/**
 * Is the start of a new connection a 698.45 login? FE wake-up bytes may come first; the frame is
 * bounded by `maxFrameLength` and its HCS before it is awaited, and its FCS before it is read.
 */
export function matchLogin(bytes: Uint8Array, maxFrameLength: number): LoginMatch {
  let at = 0;
  while (at < bytes.length && at < 4 && bytes[at] === 0xfe) at++;
  if (at >= bytes.length) return { status: "need-more" };
  if (bytes[at] !== 0x68) return NONE;
  const probe = dlt698.probeFrame(bytes, at, maxFrameLength);
  if (!probe.ok) return probe.needMore ? { status: "need-more" } : NONE;
  const frame = bytes.subarray(at, at + probe.length);
  const request = linkRequestOf(frame, maxFrameLength);
  const server = dlt698.parseFrame(frame, { maxFrameLength }).server;
  if (request?.requestType !== "login" || server.type !== "single" || !/^\d{12}$/.test(server.address))
    return NONE;
  return { status: "ok", address: server.address, request, length: at + probe.length };
}

/** The LINK response to a login, heartbeat or logout, stamped with the gateway's clock. */
export function answerLink(address: string, request: LinkRequest, now = new Date()): Uint8Array {
  return dlt698.buildLinkResponse(address, { request, receivedAt: dlt698.dateTimeOf(now) });
}
