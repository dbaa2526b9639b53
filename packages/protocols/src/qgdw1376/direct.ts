import { bcdDigits } from "../bcd.ts";
import { toHex } from "../hex.ts";

/**
 * AFN 10 F9..F11: the concentrator reads or switches a meter itself on the master's behalf
 * (转发主站直接对电能表的抄读 / 遥控跳闸·允许合闸 / 遥控送电命令). Layouts as a public
 * Kaitai description of 376.1 reads them (code index file id 22291531351) and, for the F9
 * request, a concentrator's handler (file id 9207485354): port, relay count (FF = none) and
 * relay addresses, target address (6 BCD), identifier type (0 = 645-1997 2 bytes, 1 = 645-2007
 * 4 bytes) and identifier. Answers: port, target address, result (0 = no answer, 1 = done…),
 * then for F9 the length and the identifier with its data, for F10 / F11 one status byte.
 * Decoded only; the gateway switches meters with AFN 10 F1 and a 645 frame it builds itself.
 */
export interface DirectRead {
  type: "direct-read";
  port: number;
  relays: string[];
  meter: string;
  identifierType: number;
  identifier: string;
}

export interface DirectReadReply {
  type: "direct-read-reply";
  port: number;
  meter: string;
  result: number;
  data: string;
}

export interface DirectSwitchReply {
  type: "direct-switch-reply";
  port: number;
  meter: string;
  result: number;
  status: number;
}

const address = (bytes: Uint8Array, at: number) =>
  bcdDigits(bytes.subarray(at, at + 6)) ??
  toHex(
    bytes
      .subarray(at, at + 6)
      .slice()
      .reverse(),
    "",
  );
const relayCount = (byte: number) => (byte === 0xff ? 0 : byte);

export function directReadLength(bytes: Uint8Array, at: number, end: number): number | null {
  return end - at >= 2 ? 2 + 6 * relayCount(bytes[at + 1]!) + 11 : null;
}

export function decodeDirectRead(data: Uint8Array): DirectRead {
  const relays = Array.from({ length: relayCount(data[1]!) }, (_, i) => address(data, 2 + 6 * i));
  const at = 2 + 6 * relays.length;
  return {
    type: "direct-read",
    port: data[0]!,
    relays,
    meter: address(data, at),
    identifierType: data[at + 6]!,
    identifier: toHex(
      data
        .subarray(at + 7, at + 11)
        .slice()
        .reverse(),
      "",
    ),
  };
}

export function directReadReplyLength(bytes: Uint8Array, at: number, end: number): number | null {
  return end - at >= 9 ? 9 + bytes[at + 8]! : null;
}

export function decodeDirectReadReply(data: Uint8Array): DirectReadReply {
  return {
    type: "direct-read-reply",
    port: data[0]!,
    meter: address(data, 1),
    result: data[7]!,
    data: toHex(data.subarray(9)),
  };
}

export function decodeDirectSwitchReply(data: Uint8Array): DirectSwitchReply {
  return {
    type: "direct-switch-reply",
    port: data[0]!,
    meter: address(data, 1),
    result: data[7]!,
    status: data[8]!,
  };
}
