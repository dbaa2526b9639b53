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
  /** The checksum does not match (DL/T 645 / CJ/T 188 CS; DL/T 698.45 HCS or FCS; Modbus-RTU CRC; named in the message). */
  | "checksum"
  /** The byte after the checksum is not 0x16. */
  | "bad-end"
  /** Text input that is not hexadecimal. */
  | "bad-hex"
  /** A builder was given an argument it cannot encode (address, DI, value, date...). */
  | "bad-argument"
  /** A reply was expected but a request arrived (or the other way round). */
  | "bad-direction"
  /** DL/T 698.45: the APDU inside a valid frame is malformed (unknown tag, ends early, too deep). */
  | "bad-apdu"
  /** DL/T 698.45: a SECURITY response failed its MAC check or could not be deciphered. */
  | "security"
  /** Modbus: the PDU inside a well-framed ADU breaks the function's layout (byte count, quantity, value). */
  | "bad-pdu";

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
