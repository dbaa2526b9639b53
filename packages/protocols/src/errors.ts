/**
 * The only error the codecs throw. Parsers never throw anything else (no RangeError from
 * out-of-bounds reads, no TypeError): every failure carries a stable `code` a gateway can
 * switch on and count.
 */
export type ProtocolErrorCode =
  /** No 0x68 start byte anywhere in the input. */
  | "no-start"
  /** A frame starts but the input ends before its last byte. */
  | "truncated"
  /** DL/T 645: the second 0x68 is not at offset 7. */
  | "bad-header"
  /** The length byte is impossible or above the configured maximum. */
  | "bad-length"
  /** The arithmetic checksum does not match. */
  | "checksum"
  /** The byte after the checksum is not 0x16. */
  | "bad-end"
  /** Text input that is not hexadecimal. */
  | "bad-hex"
  /** A builder was given an argument it cannot encode (address, DI, value, date...). */
  | "bad-argument"
  /** A reply was expected but a request arrived (or the other way round). */
  | "bad-direction";

export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  readonly code: ProtocolErrorCode;
  /** Offset in the input where the problem was found, when it is known. */
  readonly offset: number | undefined;

  constructor(code: ProtocolErrorCode, message: string, offset?: number) {
    super(message);
    this.code = code;
    this.offset = offset;
  }
}

/** Throw a ProtocolError; typed `never` so it can end expressions. */
export function fail(code: ProtocolErrorCode, message: string, offset?: number): never {
  throw new ProtocolError(code, message, offset);
}

export function isProtocolError(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}
