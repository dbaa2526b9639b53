import { isProtocolError, qgdw1376 } from "@meterline/protocols";

/**
 * Q/GDW 1376.1 concentrators dial the gateway and log in with AFN 02 F1 as their first frame. Its
 * address (A1 area code + A2 terminal address) names the concentrator's collector in the registry,
 * and the 16-byte login password it carries is the proof: it must equal the collector's secret
 * (dtu/authenticate.ts, the same rule as a DTU's registration). The gateway answers only once the
 * proof holds; heartbeats and logouts are answered on the stream afterwards.
 */
export interface ConcentratorLogin {
  address: qgdw1376.Qgdw1376Address;
  /** RSEQ to echo in the confirm. */
  seq: number;
  /** 32 hex digits (upper case), or undefined when the login carried none. */
  password: string | undefined;
}

export type ConcentratorLoginMatch =
  | { status: "none" }
  | { status: "need-more" }
  | { status: "ok"; login: ConcentratorLogin; collectorId: string; length: number };

const NONE: ConcentratorLoginMatch = { status: "none" };

/**
 * The registry's collector code of a concentrator: its area code and its terminal address in hex,
 * as concentrators print them ("3401" + "0102" → "34010102").
 */
export function concentratorId(address: { area: string; terminal: number }): string {
  return `${address.area.toUpperCase()}${address.terminal.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A terminal's frame decoded, or undefined when it is not one (a master's frame, undecodable). */
export function decodeTerminalFrame(bytes: Uint8Array, maxFrameLength: number) {
  try {
    const frame = qgdw1376.parseFrame(bytes, { maxUserLength: maxFrameLength - 8 });
    return qgdw1376.decodeUp(frame);
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

/**
 * Is the start of a new connection a 1376.1 login? The frame must start at the first byte; its L
 * field is checked against `maxFrameLength` before the rest is awaited, its checksum before it is
 * read. A group or broadcast address names no concentrator.
 */
export function matchConcentratorLogin(bytes: Uint8Array, maxFrameLength: number): ConcentratorLoginMatch {
  if (bytes.length === 0) return { status: "need-more" };
  if (bytes[0] !== 0x68) return NONE;
  const probe = qgdw1376.probeFrame(bytes, 0, maxFrameLength - 8);
  if (!probe.ok) return probe.needMore ? { status: "need-more" } : NONE;
  const decoded = decodeTerminalFrame(bytes.subarray(0, probe.length), maxFrameLength);
  if (decoded?.kind !== "login" || decoded.address.group || decoded.address.terminal === 0) return NONE;
  const unit = decoded.units[0]?.value;
  const password = unit?.type === "login-password" ? unit.hex.toUpperCase() : undefined;
  return {
    status: "ok",
    login: { address: decoded.address, seq: decoded.seq.seq, password },
    collectorId: concentratorId(decoded.address),
    length: probe.length,
  };
}

/**
 * The 1376.1 password a collector's secret stands for: 32 hex digits as they are, or a shorter
 * text secret as its UTF-8 bytes padded with zeros to 16. Undefined when it cannot be one.
 */
export function concentratorPassword(secret: string | undefined): string | undefined {
  if (!secret) return undefined;
  if (/^[0-9A-Fa-f]{32}$/.test(secret)) return secret.toUpperCase();
  const bytes = new TextEncoder().encode(secret);
  if (bytes.length > 16) return undefined;
  const padded = new Uint8Array(16);
  padded.set(bytes);
  return [...padded].map((byte) => byte.toString(16).toUpperCase().padStart(2, "0")).join("");
}
