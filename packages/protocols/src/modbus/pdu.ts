import { fail } from "../errors.ts";
import {
  COIL_OFF,
  COIL_ON,
  exceptionName,
  isReadBits,
  isReadRegisters,
  MAX_READ_BITS,
  MAX_READ_REGISTERS,
  MAX_WRITE_COILS,
  MAX_WRITE_REGISTERS,
  type ReadBitsFunction,
  type ReadFunction,
  type ReadRegistersFunction,
} from "./functions.ts";

/**
 * Modbus PDUs (function code + data) of the eight functions a meter needs, both directions:
 * the gateway builds requests and decodes replies; the simulated meter does the reverse. Every
 * decoder checks the layout of §6 before reading a field, and throws only ProtocolError
 * ("bad-pdu") when a PDU breaks it.
 */
export type ModbusRequest =
  | { kind: "read"; functionCode: ReadFunction; address: number; quantity: number }
  | { kind: "write-single-coil"; functionCode: 0x05; address: number; value: boolean }
  | { kind: "write-single-register"; functionCode: 0x06; address: number; value: number }
  | { kind: "write-multiple-coils"; functionCode: 0x0f; address: number; values: boolean[] }
  | { kind: "write-multiple-registers"; functionCode: 0x10; address: number; values: number[] };

export type ModbusReply =
  /** Coils or discrete inputs, packed LSB first; `bits` holds all byteCount × 8 (trim to the quantity asked). */
  | { kind: "read-bits"; functionCode: ReadBitsFunction; byteCount: number; bits: boolean[] }
  | { kind: "read-registers"; functionCode: ReadRegistersFunction; byteCount: number; registers: number[] }
  | { kind: "write-single-coil"; functionCode: 0x05; address: number; value: boolean }
  | { kind: "write-single-register"; functionCode: 0x06; address: number; value: number }
  | { kind: "write-multiple"; functionCode: 0x0f | 0x10; address: number; quantity: number }
  /** `functionCode` is the request's (the wire carries it | 0x80). */
  | { kind: "exception"; functionCode: number; exceptionCode: number; exceptionName: string };

// ---- request helpers ------------------------------------------------------------------

export const readCoils = (address: number, quantity: number): ModbusRequest => ({
  kind: "read",
  functionCode: 0x01,
  address,
  quantity,
});
export const readDiscreteInputs = (address: number, quantity: number): ModbusRequest => ({
  kind: "read",
  functionCode: 0x02,
  address,
  quantity,
});
export const readHoldingRegisters = (address: number, quantity: number): ModbusRequest => ({
  kind: "read",
  functionCode: 0x03,
  address,
  quantity,
});
export const readInputRegisters = (address: number, quantity: number): ModbusRequest => ({
  kind: "read",
  functionCode: 0x04,
  address,
  quantity,
});
export const writeSingleCoil = (address: number, value: boolean): ModbusRequest => ({
  kind: "write-single-coil",
  functionCode: 0x05,
  address,
  value,
});
export const writeSingleRegister = (address: number, value: number): ModbusRequest => ({
  kind: "write-single-register",
  functionCode: 0x06,
  address,
  value,
});
export const writeMultipleCoils = (address: number, values: boolean[]): ModbusRequest => ({
  kind: "write-multiple-coils",
  functionCode: 0x0f,
  address,
  values,
});
export const writeMultipleRegisters = (address: number, values: number[]): ModbusRequest => ({
  kind: "write-multiple-registers",
  functionCode: 0x10,
  address,
  values,
});

/** Most registers or bits one read may ask for (§6.1–6.4). */
export function maxReadQuantity(functionCode: ReadFunction): number {
  return isReadBits(functionCode) ? MAX_READ_BITS : MAX_READ_REGISTERS;
}

/** Reply byte count the spec fixes for a read of `quantity` items. */
export function readByteCount(functionCode: ReadFunction, quantity: number): number {
  return isReadBits(functionCode) ? Math.ceil(quantity / 8) : quantity * 2;
}

// ---- checks ---------------------------------------------------------------------------

function checkWord(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff)
    fail("bad-argument", `${what} ${value} is not an integer in 0..65535`);
}

function checkRange(address: number, quantity: number, max: number, what: string): void {
  checkWord(address, `${what} address`);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > max)
    fail("bad-argument", `${what} quantity ${quantity} is outside 1..${max}`);
  if (address + quantity > 0x10000)
    fail("bad-argument", `${what} of ${quantity} from ${address} runs past address 65535`);
}

// ---- encoders -------------------------------------------------------------------------

export function encodeRequest(request: ModbusRequest): Uint8Array {
  const { address } = request;
  switch (request.kind) {
    case "read": {
      if (!isReadBits(request.functionCode) && !isReadRegisters(request.functionCode))
        fail("bad-argument", `function ${request.functionCode} is not a read`);
      checkRange(address, request.quantity, maxReadQuantity(request.functionCode), "read");
      return words(request.functionCode, address, request.quantity);
    }
    case "write-single-coil":
      checkWord(address, "coil address");
      return words(0x05, address, request.value ? COIL_ON : COIL_OFF);
    case "write-single-register":
      checkWord(address, "register address");
      checkWord(request.value, "register value");
      return words(0x06, address, request.value);
    case "write-multiple-coils": {
      const quantity = request.values.length;
      checkRange(address, quantity, MAX_WRITE_COILS, "coil write");
      const packed = packBits(request.values);
      const out = new Uint8Array(6 + packed.length);
      out.set(words(0x0f, address, quantity));
      out[5] = packed.length;
      out.set(packed, 6);
      return out;
    }
    case "write-multiple-registers": {
      const quantity = request.values.length;
      checkRange(address, quantity, MAX_WRITE_REGISTERS, "register write");
      const out = new Uint8Array(6 + quantity * 2);
      out.set(words(0x10, address, quantity));
      out[5] = quantity * 2;
      request.values.forEach((value, i) => {
        checkWord(value, `register value #${i}`);
        out[6 + i * 2] = value >> 8;
        out[7 + i * 2] = value & 0xff;
      });
      return out;
    }
  }
}

export function encodeReply(reply: ModbusReply): Uint8Array {
  switch (reply.kind) {
    case "read-bits": {
      const packed = packBits(reply.bits);
      if (packed.length < 1 || packed.length > 250) fail("bad-argument", "a bit reply carries 1..2000 bits");
      return Uint8Array.of(reply.functionCode, packed.length, ...packed);
    }
    case "read-registers": {
      const count = reply.registers.length;
      if (count < 1 || count > MAX_READ_REGISTERS)
        fail("bad-argument", "a register reply carries 1..125 registers");
      const out = new Uint8Array(2 + count * 2);
      out[0] = reply.functionCode;
      out[1] = count * 2;
      reply.registers.forEach((value, i) => {
        checkWord(value, `register value #${i}`);
        out[2 + i * 2] = value >> 8;
        out[3 + i * 2] = value & 0xff;
      });
      return out;
    }
    case "write-single-coil":
      checkWord(reply.address, "coil address");
      return words(0x05, reply.address, reply.value ? COIL_ON : COIL_OFF);
    case "write-single-register":
      checkWord(reply.address, "register address");
      checkWord(reply.value, "register value");
      return words(0x06, reply.address, reply.value);
    case "write-multiple":
      checkRange(
        reply.address,
        reply.quantity,
        reply.functionCode === 0x0f ? MAX_WRITE_COILS : MAX_WRITE_REGISTERS,
        "write",
      );
      return words(reply.functionCode, reply.address, reply.quantity);
    case "exception":
      if (
        reply.functionCode < 1 ||
        reply.functionCode > 0x7f ||
        reply.exceptionCode < 0 ||
        reply.exceptionCode > 255
      )
        fail("bad-argument", "an exception carries a function 1..127 and a code 0..255");
      return Uint8Array.of(reply.functionCode | 0x80, reply.exceptionCode);
  }
}

/** The reply a meter sends to `request` when it cannot serve it. */
export function exceptionReply(functionCode: number, exceptionCode: number): ModbusReply {
  return { kind: "exception", functionCode, exceptionCode, exceptionName: exceptionName(exceptionCode) };
}

function words(functionCode: number, first: number, second: number): Uint8Array {
  return Uint8Array.of(functionCode, first >> 8, first & 0xff, second >> 8, second & 0xff);
}

function packBits(bits: readonly boolean[]): Uint8Array {
  const out = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) out[i >> 3] = out[i >> 3]! | (1 << (i & 7));
  });
  return out;
}

function unpackBits(pdu: Uint8Array, from: number, count: number): boolean[] {
  const bits: boolean[] = new Array(count * 8);
  for (let i = 0; i < count * 8; i++) bits[i] = ((pdu[from + (i >> 3)]! >> (i & 7)) & 1) === 1;
  return bits;
}

// ---- decoders -------------------------------------------------------------------------

const word = (pdu: Uint8Array, at: number) => (pdu[at]! << 8) | pdu[at + 1]!;

function needLength(pdu: Uint8Array, length: number, what: string): void {
  if (pdu.length !== length)
    fail("bad-pdu", `Modbus ${what}: the PDU has ${pdu.length} bytes, the layout needs ${length}`);
}

/** A request PDU as a meter receives it. */
export function decodeRequest(pdu: Uint8Array): ModbusRequest {
  if (pdu.length < 1) fail("bad-pdu", "Modbus: empty PDU");
  const functionCode = pdu[0]!;
  if (isReadBits(functionCode) || isReadRegisters(functionCode)) {
    needLength(pdu, 5, "read request");
    const address = word(pdu, 1);
    const quantity = word(pdu, 3);
    const max = maxReadQuantity(functionCode);
    if (quantity < 1 || quantity > max || address + quantity > 0x10000)
      fail("bad-pdu", `Modbus read request: quantity ${quantity} from ${address} is outside 1..${max}`);
    return { kind: "read", functionCode, address, quantity };
  }
  switch (functionCode) {
    case 0x05: {
      needLength(pdu, 5, "write single coil");
      const value = word(pdu, 3);
      if (value !== COIL_ON && value !== COIL_OFF)
        fail("bad-pdu", `Modbus write single coil: value 0x${value.toString(16)} is neither FF00 nor 0000`);
      return { kind: "write-single-coil", functionCode, address: word(pdu, 1), value: value === COIL_ON };
    }
    case 0x06:
      needLength(pdu, 5, "write single register");
      return { kind: "write-single-register", functionCode, address: word(pdu, 1), value: word(pdu, 3) };
    case 0x0f:
    case 0x10: {
      if (pdu.length < 6) fail("bad-pdu", "Modbus write multiple: the PDU ends before its byte count");
      const address = word(pdu, 1);
      const quantity = word(pdu, 3);
      const coils = functionCode === 0x0f;
      const max = coils ? MAX_WRITE_COILS : MAX_WRITE_REGISTERS;
      if (quantity < 1 || quantity > max || address + quantity > 0x10000)
        fail("bad-pdu", `Modbus write multiple: quantity ${quantity} from ${address} is outside 1..${max}`);
      const byteCount = pdu[5]!;
      const expected = coils ? Math.ceil(quantity / 8) : quantity * 2;
      if (byteCount !== expected)
        fail("bad-pdu", `Modbus write multiple: byte count ${byteCount} does not match ${quantity} items`);
      needLength(pdu, 6 + byteCount, "write multiple");
      if (coils)
        return {
          kind: "write-multiple-coils",
          functionCode,
          address,
          values: unpackBits(pdu, 6, byteCount).slice(0, quantity),
        };
      const values: number[] = new Array(quantity);
      for (let i = 0; i < quantity; i++) values[i] = word(pdu, 6 + i * 2);
      return { kind: "write-multiple-registers", functionCode, address, values };
    }
    default:
      fail("bad-pdu", `Modbus: function 0x${functionCode.toString(16)} is not one this codec decodes`);
  }
}

/** A reply PDU as the gateway receives it (normal or exception). */
export function decodeReply(pdu: Uint8Array): ModbusReply {
  if (pdu.length < 1) fail("bad-pdu", "Modbus: empty PDU");
  const functionCode = pdu[0]!;
  if (functionCode & 0x80) {
    needLength(pdu, 2, "exception reply");
    return exceptionReply(functionCode & 0x7f, pdu[1]!);
  }
  if (isReadBits(functionCode) || isReadRegisters(functionCode)) {
    if (pdu.length < 2) fail("bad-pdu", "Modbus read reply: the PDU ends before its byte count");
    const byteCount = pdu[1]!;
    const registers = isReadRegisters(functionCode);
    if (byteCount === 0 || (registers && (byteCount % 2 !== 0 || byteCount > MAX_READ_REGISTERS * 2)))
      fail(
        "bad-pdu",
        `Modbus read reply: byte count ${byteCount} is impossible for ${registers ? "registers" : "bits"}`,
      );
    needLength(pdu, 2 + byteCount, "read reply");
    if (!registers)
      return { kind: "read-bits", functionCode, byteCount, bits: unpackBits(pdu, 2, byteCount) };
    const values: number[] = new Array(byteCount / 2);
    for (let i = 0; i < values.length; i++) values[i] = word(pdu, 2 + i * 2);
    return { kind: "read-registers", functionCode, byteCount, registers: values };
  }
  switch (functionCode) {
    case 0x05:
    case 0x06: {
      // A single write is answered by its echo.
      const request = decodeRequest(pdu);
      return request as Extract<ModbusReply, { functionCode: 0x05 | 0x06 }>;
    }
    case 0x0f:
    case 0x10: {
      needLength(pdu, 5, "write multiple reply");
      const address = word(pdu, 1);
      const quantity = word(pdu, 3);
      const max = functionCode === 0x0f ? MAX_WRITE_COILS : MAX_WRITE_REGISTERS;
      if (quantity < 1 || quantity > max)
        fail("bad-pdu", `Modbus write multiple reply: quantity ${quantity} is outside 1..${max}`);
      return { kind: "write-multiple", functionCode, address, quantity };
    }
    default:
      fail("bad-pdu", `Modbus: function 0x${functionCode.toString(16)} is not one this codec decodes`);
  }
}

/** The reply PDU length a request fixes (normal reply); the exception reply is always 2. */
export function expectedReplyLength(request: ModbusRequest): number {
  return request.kind === "read" ? 2 + readByteCount(request.functionCode, request.quantity) : 5;
}

/** The meter side: the normal reply that acknowledges a write request (echo or address + quantity). */
export function writeAcknowledgement(request: Exclude<ModbusRequest, { kind: "read" }>): ModbusReply {
  switch (request.kind) {
    case "write-single-coil":
    case "write-single-register":
      return request;
    case "write-multiple-coils":
    case "write-multiple-registers":
      return {
        kind: "write-multiple",
        functionCode: request.functionCode,
        address: request.address,
        quantity: request.values.length,
      };
  }
}
