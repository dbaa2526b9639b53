/**
 * DTU registration and heartbeat packets (metering-domain.md §3.1: DTUs send a configurable
 * registration packet once after connecting and a short heartbeat when idle).
 *
 * A template is text with escapes and one id placeholder:
 *   `\n` `\r` `\\` and `\xHH` (any byte), `{id}` (the DTU id, variable length: the template must
 *   go on with at least one byte after it, which ends the id) or `{id:N}` (exactly N characters).
 * Ids are 1..64 characters of A-Z a-z 0-9 . _ : -
 * Examples: "REG:{id}\n" (default), "{id:15}" (a bare IMEI), "\x7B\x31\x00\x10{id:11}\x7D"
 * (the 7B…7D vendor framing with an 11-character id), heartbeat "HB\n" (default) or "\xFE".
 */
export interface PacketFormat {
  prefix: Uint8Array;
  suffix: Uint8Array;
  /** Fixed id length, or null for a variable id ended by the suffix; undefined = no id at all. */
  idLength: number | null | undefined;
}

export class PacketFormatError extends Error {}

const ID_CHAR = /^[A-Za-z0-9._:-]$/;
export const MAX_ID_LENGTH = 64;

export function isValidId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && [...id].every((c) => ID_CHAR.test(c));
}

function decodeEscapes(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "\\") {
      for (const byte of Buffer.from(c, "utf8")) out.push(byte);
      continue;
    }
    const next = text[i + 1];
    if (next === "n") out.push(0x0a);
    else if (next === "r") out.push(0x0d);
    else if (next === "\\") out.push(0x5c);
    else if (next === "x" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      out.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
      i += 2;
    } else throw new PacketFormatError(`bad escape at ${i} in "${text}"`);
    i++;
  }
  return out;
}

export function parseTemplate(template: string): PacketFormat {
  const match = /\{id(?::(\d+))?\}/.exec(template);
  if (!match) {
    const bytes = Uint8Array.from(decodeEscapes(template));
    return { prefix: bytes, suffix: new Uint8Array(0), idLength: undefined };
  }
  if (template.indexOf("{id", match.index + 1) !== -1) throw new PacketFormatError("only one {id} allowed");
  const prefix = Uint8Array.from(decodeEscapes(template.slice(0, match.index)));
  const suffix = Uint8Array.from(decodeEscapes(template.slice(match.index + match[0].length)));
  const idLength = match[1] === undefined ? null : Number(match[1]);
  if (idLength !== null && (idLength < 1 || idLength > MAX_ID_LENGTH))
    throw new PacketFormatError(`{id:N} needs 1 ≤ N ≤ ${MAX_ID_LENGTH}`);
  if (idLength === null && suffix.length === 0)
    throw new PacketFormatError("a variable {id} must be followed by at least one byte (or use {id:N})");
  return { prefix, suffix, idLength };
}

/** The bytes of a packet for a given id (DTU side; the simulator and tests use it). */
export function renderPacket(format: PacketFormat, id = ""): Uint8Array {
  const idBytes = format.idLength === undefined ? new Uint8Array(0) : Buffer.from(id, "latin1");
  if (format.idLength !== undefined && format.idLength !== null && idBytes.length !== format.idLength)
    throw new PacketFormatError(`this format needs an id of exactly ${format.idLength} characters`);
  return Buffer.concat([format.prefix, idBytes, format.suffix]);
}

export type RegistrationMatch =
  | { status: "need-more" }
  | { status: "invalid"; reason: string }
  | { status: "ok"; id: string; length: number };

/** Match a registration packet at the start of what a new connection sent so far. */
export function matchRegistration(format: PacketFormat, bytes: Uint8Array): RegistrationMatch {
  const { prefix, suffix, idLength } = format;
  const head = Math.min(bytes.length, prefix.length);
  for (let i = 0; i < head; i++)
    if (bytes[i] !== prefix[i]) return { status: "invalid", reason: "registration prefix mismatch" };
  if (bytes.length < prefix.length) return { status: "need-more" };
  let idEnd: number;
  if (idLength === undefined) idEnd = prefix.length;
  else if (idLength !== null) {
    if (bytes.length < prefix.length + idLength) return { status: "need-more" };
    idEnd = prefix.length + idLength;
  } else {
    idEnd = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(suffix, prefix.length);
    if (idEnd === -1) {
      const idSoFar = bytes.length - prefix.length;
      return idSoFar > MAX_ID_LENGTH + suffix.length
        ? { status: "invalid", reason: "registration id too long or unterminated" }
        : { status: "need-more" };
    }
  }
  const id = Buffer.from(bytes.subarray(prefix.length, idEnd)).toString("latin1");
  if (idLength !== undefined && !isValidId(id))
    return { status: "invalid", reason: "bad characters in DTU id" };
  const end = idEnd + suffix.length;
  if (bytes.length < end) return { status: "need-more" };
  for (let i = 0; i < suffix.length; i++)
    if (bytes[idEnd + i] !== suffix[i]) return { status: "invalid", reason: "registration suffix mismatch" };
  return { status: "ok", id, length: end };
}

/**
 * Count heartbeats in a stream chunk without removing them: they are not frames, so the frame
 * splitter skips them as noise; this only keeps them out of the garbage count. `carry` holds the
 * tail of the previous chunk so a heartbeat split across two chunks is still seen once.
 */
const EMPTY = Buffer.alloc(0);

export class HeartbeatCounter {
  private carry: Buffer = EMPTY;

  private readonly pattern: Buffer;

  constructor(pattern: Uint8Array) {
    this.pattern = Buffer.from(pattern);
  }

  count(chunk: Uint8Array): number {
    if (this.pattern.length === 0) return 0;
    // Most chunks need no copy: only a carried partial heartbeat makes us join.
    const data =
      this.carry.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
        : Buffer.concat([this.carry, chunk]);
    let found = 0;
    let at = data.indexOf(this.pattern);
    let end = 0;
    while (at !== -1) {
      found++;
      end = at + this.pattern.length;
      at = data.indexOf(this.pattern, end);
    }
    const keep = Math.min(this.pattern.length - 1, data.length - end);
    // Keep only a tail that could be the start of the pattern (copied: the chunk is not ours).
    let tail = 0;
    for (let length = keep; length > 0 && tail === 0; length--)
      if (data.subarray(data.length - length).equals(this.pattern.subarray(0, length))) tail = length;
    this.carry = tail > 0 ? Buffer.from(data.subarray(data.length - tail)) : EMPTY;
    return found;
  }

  get length(): number {
    return this.pattern.length;
  }
}
