import { isProtocolError } from "../errors.ts";
import type { ModbusAdu, Transport } from "./frame.ts";
import { functionName, isReadBits, isReadRegisters } from "./functions.ts";
import { decodeReply, decodeRequest, type ModbusReply, type ModbusRequest } from "./pdu.ts";

export type Direction = "request" | "reply";

export type ModbusDecoded = {
  transport: Transport;
  unit: number;
  transactionId?: number;
  /** The function code on the wire (0x83 for an exception to 0x03). */
  functionCode: number;
  functionName: string;
  warnings: string[];
} & ({ direction: "request"; message: ModbusRequest } | { direction: "reply"; message: ModbusReply });

/**
 * Which way a PDU travels when nobody said. Exceptions are replies; a read is 5 bytes asked and
 * 2 + byte count answered; a multiple write is answered in 5 bytes. Two cases stay open: a
 * single write and its echo are the same bytes, and a 5-byte bit read with byte count 3 could be
 * either way (named in a warning).
 */
export function guessDirection(pdu: Uint8Array): { direction: Direction; warning?: string } {
  const functionCode = pdu[0] ?? 0;
  if (functionCode & 0x80) return { direction: "reply" };
  if (isReadBits(functionCode) || isReadRegisters(functionCode)) {
    const asRequest = pdu.length === 5;
    const asReply = pdu.length >= 2 && pdu.length === 2 + pdu[1]!;
    // Both layouts fit only a bit read with byte count 3: a request whose quantity is out of
    // range is a reply; when both decode, say so.
    if (asRequest && asReply) {
      if (!attempt(() => decodeRequest(pdu))) return { direction: "reply" };
      return {
        direction: "request",
        warning: "these bytes are also a valid reply carrying 3 bytes of bits: pass the direction to be sure",
      };
    }
    if (asReply) return { direction: "reply" };
    return { direction: asRequest || pdu.length < 5 ? "request" : "reply" };
  }
  if (functionCode === 0x0f || functionCode === 0x10)
    return { direction: pdu.length === 5 ? "reply" : "request" };
  return { direction: "request" };
}

/** Decode a parsed ADU; `direction` "auto" guesses from the layout (see guessDirection). */
export function decodeAdu(adu: ModbusAdu, direction: Direction | "auto" = "auto"): ModbusDecoded {
  const guessed = direction === "auto" ? guessDirection(adu.pdu) : { direction };
  const functionCode = adu.pdu[0] ?? 0;
  const base = {
    transport: adu.transport,
    unit: adu.unit,
    ...(adu.transactionId === undefined ? {} : { transactionId: adu.transactionId }),
    functionCode,
    functionName: functionName(functionCode),
    warnings: guessed.warning ? [guessed.warning] : [],
  };
  if (guessed.direction === "request")
    return { ...base, direction: "request", message: decodeRequest(adu.pdu) };
  return { ...base, direction: "reply", message: decodeReply(adu.pdu) };
}

/**
 * Does `reply` answer `request`? Same transport, same slave (and TCP transaction id), the same
 * function or its exception, and a body consistent with what was asked: the byte count of a
 * read fixed by its quantity, the echo of a single write, the address and quantity of a
 * multiple write. A broadcast (slave 0) is never answered.
 */
export function isReplyTo(reply: ModbusAdu, request: ModbusAdu): boolean {
  if (reply.transport !== request.transport || reply.unit !== request.unit) return false;
  if (request.transport === "rtu" && request.unit === 0) return false;
  if (request.transport === "tcp" && reply.transactionId !== request.transactionId) return false;
  const asked = attempt(() => decodeRequest(request.pdu));
  const answer = attempt(() => decodeReply(reply.pdu));
  if (!asked || !answer) return false;
  if (answer.kind === "exception") return answer.functionCode === asked.functionCode;
  if (answer.functionCode !== asked.functionCode) return false;
  switch (asked.kind) {
    case "read":
      return (
        (answer.kind === "read-bits" || answer.kind === "read-registers") &&
        answer.byteCount ===
          (isReadBits(asked.functionCode) ? Math.ceil(asked.quantity / 8) : asked.quantity * 2)
      );
    case "write-single-coil":
    case "write-single-register":
      return answer.kind === asked.kind && answer.address === asked.address && answer.value === asked.value;
    case "write-multiple-coils":
    case "write-multiple-registers":
      return (
        answer.kind === "write-multiple" &&
        answer.address === asked.address &&
        answer.quantity === asked.values.length
      );
  }
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}
