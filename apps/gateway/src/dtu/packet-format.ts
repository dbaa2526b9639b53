/**
 * DTU registration and heartbeat packets (metering-domain.md §3.1: DTUs send a configurable
 * registration packet once after connecting and a short heartbeat when idle).
 *
 * A template is text with escapes and up to two placeholders, each at most once:
 *   `\n` `\r` `\\` and `\xHH` (any byte);
 *   `{id}` the DTU id, 1..64 characters of A-Z a-z 0-9 . _ : -
 *   `{secret}` the collector's secret, 1..64 characters of A-Z a-z 0-9 . _ ~ -
 * A placeholder of variable length must be followed by at least one fixed byte, which ends it;
 * `{id:N}` / `{secret:N}` take exactly N characters instead.
 * Examples: "REG:{id},{secret}\n" (default), "{id:15}{secret:16}" (a bare IMEI and a 16-character
 * secret), "\x7B\x31\x00\x10{id:11}{secret}\x7D" (the 7B…7D vendor framing), heartbeat "HB\n".
 */
export type PacketField = "id" | "secret";

export type PacketPiece =
  | { kind: "bytes"; bytes: Uint8Array }
  /** length: fixed length, or null for a variable value ended by the next bytes. */
  | { kind: PacketField; length: number | null };

export interface PacketFormat {
  pieces: readonly PacketPiece[];
}

export class PacketFormatError extends Error {}

export const MAX_ID_LENGTH = 64;
export const MAX_SECRET_LENGTH = 64;
const CHARS: Record<PacketField, RegExp> = {
  id: /^[A-Za-z0-9._:-]+$/,
  secret: /^[A-Za-z0-9._~-]+$/,
};
const MAX_LENGTH: Record<PacketField, number> = { id: MAX_ID_LENGTH, secret: MAX_SECRET_LENGTH };

export function isValidId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH && CHARS.id.test(id);
}

export function isValidSecret(secret: string): boolean {
  return secret.length <= MAX_SECRET_LENGTH && CHARS.secret.test(secret);
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
  const pieces: PacketPiece[] = [];
  const seen = new Set<PacketField>();
  const placeholder = /\{(id|secret)(?::(\d+))?\}/g;
  let at = 0;
  for (const match of template.matchAll(placeholder)) {
    const literal = decodeEscapes(template.slice(at, match.index));
    if (literal.length > 0) pieces.push({ kind: "bytes", bytes: Uint8Array.from(literal) });
    const field = match[1] as PacketField;
    if (seen.has(field)) throw new PacketFormatError(`only one {${field}} allowed`);
    seen.add(field);
    const length = match[2] === undefined ? null : Number(match[2]);
    if (length !== null && (length < 1 || length > MAX_LENGTH[field]))
      throw new PacketFormatError(`{${field}:N} needs 1 ≤ N ≤ ${MAX_LENGTH[field]}`);
    pieces.push({ kind: field, length });
    at = match.index + match[0].length;
  }
  const tail = decodeEscapes(template.slice(at));
  if (tail.length > 0) pieces.push({ kind: "bytes", bytes: Uint8Array.from(tail) });
  pieces.forEach((piece, i) => {
    if (piece.kind !== "bytes" && piece.length === null && pieces[i + 1]?.kind !== "bytes")
      throw new PacketFormatError(
        `a variable {${piece.kind}} must be followed by at least one byte (or use {${piece.kind}:N})`,
      );
  });
  return { pieces };
}

/** Whether a template carries this placeholder. */
export function hasField(format: PacketFormat, field: PacketField): boolean {
  return format.pieces.some((piece) => piece.kind === field);
}

/** The bytes of a packet for a given id and secret (DTU side; the simulator and tests use it). */
export function renderPacket(format: PacketFormat, id = "", secret = ""): Uint8Array {
  const values: Record<PacketField, string> = { id, secret };
  return Buffer.concat(
    format.pieces.map((piece) => {
      if (piece.kind === "bytes") return piece.bytes;
      const bytes = Buffer.from(values[piece.kind], "latin1");
      if (piece.length !== null && bytes.length !== piece.length)
        throw new PacketFormatError(
          `this format needs a ${piece.kind} of exactly ${piece.length} characters`,
        );
      return bytes;
    }),
  );
}

export type RegistrationMatch =
  | { status: "need-more" }
  | { status: "invalid"; reason: string }
  | { status: "ok"; id: string; secret?: string; length: number };

/** Match a registration packet at the start of what a new connection sent so far. */
export function matchRegistration(format: PacketFormat, bytes: Uint8Array): RegistrationMatch {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const found: Partial<Record<PacketField, string>> = {};
  let at = 0;
  for (const [i, piece] of format.pieces.entries()) {
    if (piece.kind === "bytes") {
      const head = Math.min(data.length - at, piece.bytes.length);
      for (let k = 0; k < head; k++)
        if (data[at + k] !== piece.bytes[k])
          return { status: "invalid", reason: `registration ${i === 0 ? "prefix" : "suffix"} mismatch` };
      if (head < piece.bytes.length) return { status: "need-more" };
      at += piece.bytes.length;
      continue;
    }
    let end: number;
    if (piece.length !== null) {
      if (data.length < at + piece.length) return { status: "need-more" };
      end = at + piece.length;
    } else {
      const next = format.pieces[i + 1] as { bytes: Uint8Array };
      end = data.indexOf(next.bytes, at);
      if (end === -1)
        return data.length - at > MAX_LENGTH[piece.kind] + next.bytes.length
          ? { status: "invalid", reason: `registration ${piece.kind} too long or unterminated` }
          : { status: "need-more" };
    }
    const value = data.subarray(at, end).toString("latin1");
    const valid = piece.kind === "id" ? isValidId(value) : isValidSecret(value);
    if (!valid) return { status: "invalid", reason: `bad characters in DTU ${piece.kind}` };
    found[piece.kind] = value;
    at = end;
  }
  return {
    status: "ok",
    id: found.id ?? "",
    ...(found.secret !== undefined ? { secret: found.secret } : {}),
    length: at,
  };
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
