import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";

/** A bounded cursor over an APDU. */
export class Reader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }
  get remaining(): number {
    return this.end - this.pos;
  }
  need(n: number, what: string): void {
    if (n > this.end - this.pos) fail("bad-apdu", `the APDU ends inside ${what}`, this.pos);
  }
  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  u16(what: string): number {
    this.need(2, what);
    const v = (this.bytes[this.pos]! << 8) | this.bytes[this.pos + 1]!;
    this.pos += 2;
    return v;
  }
  u32(what: string): number {
    this.need(4, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    return ((b[p]! << 24) >>> 0) + (b[p + 1]! << 16) + (b[p + 2]! << 8) + b[p + 3]!;
  }
  take(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** A-XDR length (counts of arrays, structures, sequences; string lengths). */
  length(what: string): number {
    const first = this.u8(what);
    if (first < 0x80) return first;
    const n = first & 0x7f;
    if (n === 0 || n > 4) fail("bad-apdu", `length prefix 0x${first.toString(16)} in ${what}`, this.pos - 1);
    let value = 0;
    for (let i = 0; i < n; i++) value = value * 256 + this.u8(what);
    return value;
  }
  /** A count of items that each take at least `minItemBytes`: refused early when it cannot fit. */
  count(what: string, minItemBytes = 1): number {
    const n = this.length(what);
    if (n * minItemBytes > this.remaining)
      fail("bad-apdu", `${what} announces ${n} items, too many`, this.pos);
    return n;
  }
  hex(n: number, what: string): string {
    return toHex(this.take(n, what), "");
  }
}

/** A growable byte buffer for encoding. */
export class Writer {
  private buffer = new Uint8Array(64);
  length = 0;
  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
  u8(value: number): this {
    this.room(1);
    this.buffer[this.length++] = value & 0xff;
    return this;
  }
  u16(value: number): this {
    return this.u8(value >> 8).u8(value);
  }
  u32(value: number): this {
    return this.u16(Math.floor(value / 0x10000)).u16(value & 0xffff);
  }
  bytes(value: Uint8Array): this {
    this.room(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }
  axdrLength(n: number): this {
    if (n < 0x80) return this.u8(n);
    const parts: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) parts.unshift(v & 0xff);
    this.u8(0x80 | parts.length);
    for (const part of parts) this.u8(part);
    return this;
  }
  hex(text: string, what: string): this {
    return this.bytes(hexBytes(text, what));
  }
  done(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

export function hexBytes(text: string, what: string): Uint8Array {
  if (!/^(?:[0-9A-Fa-f]{2})*$/.test(text)) fail("bad-argument", `${what} "${text}" is not hex bytes`);
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function checkInt(value: number, bytes: number, signed: boolean, what: string): void {
  const bits = bytes * 8;
  const min = signed ? -(2 ** (bits - 1)) : 0;
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  if (!Number.isInteger(value) || value < min || value > max)
    fail("bad-argument", `${what} ${value} is out of range ${min}..${max}`);
}
