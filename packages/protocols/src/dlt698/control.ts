import { fail } from "../errors.ts";

/**
 * Control byte C (DL/T 698.45 §7.1.2): bit 7 DIR (0 client→server), bit 6 PRM (1 = the
 * client started the exchange, 0 = the server did: LINK login, REPORT), bit 5 split frame,
 * bit 3 scrambled (user data sent +0x33), bits 2–0 function code (1 link management, 3 user data).
 */
export const Fn = { LINK: 1, USER_DATA: 3 } as const;

export interface Dlt698ControlInfo {
  raw: number;
  direction: "client->server" | "server->client";
  /** Who started the exchange this frame belongs to (PRM). */
  initiator: "client" | "server";
  split: boolean;
  scrambled: boolean;
  function: number;
  functionName: "link-management" | "user-data" | "reserved";
}

export function decodeControl(raw: number): Dlt698ControlInfo {
  const fn = raw & 0x07;
  return {
    raw,
    direction: raw & 0x80 ? "server->client" : "client->server",
    initiator: raw & 0x40 ? "client" : "server",
    split: (raw & 0x20) !== 0,
    scrambled: (raw & 0x08) !== 0,
    function: fn,
    functionName: fn === Fn.LINK ? "link-management" : fn === Fn.USER_DATA ? "user-data" : "reserved",
  };
}

export interface ControlInput {
  direction: "client->server" | "server->client";
  initiator: "client" | "server";
  function: number;
  split?: boolean;
  scrambled?: boolean;
}

export function encodeControl(input: ControlInput): number {
  if (!Number.isInteger(input.function) || input.function < 0 || input.function > 7)
    fail("bad-argument", `function code ${input.function} is not 0..7`);
  return (
    (input.direction === "server->client" ? 0x80 : 0) |
    (input.initiator === "client" ? 0x40 : 0) |
    (input.split ? 0x20 : 0) |
    (input.scrambled ? 0x08 : 0) |
    input.function
  );
}
