/**
 * Function and exception codes of the Modbus Application Protocol Specification V1.1b3
 * (§6 function descriptions, §7 exception responses), with the quantity limits of §6.1–6.12.
 */
export const FunctionCode = {
  READ_COILS: 0x01,
  READ_DISCRETE_INPUTS: 0x02,
  READ_HOLDING_REGISTERS: 0x03,
  READ_INPUT_REGISTERS: 0x04,
  WRITE_SINGLE_COIL: 0x05,
  WRITE_SINGLE_REGISTER: 0x06,
  WRITE_MULTIPLE_COILS: 0x0f,
  WRITE_MULTIPLE_REGISTERS: 0x10,
} as const;

export type ReadBitsFunction = 0x01 | 0x02;
export type ReadRegistersFunction = 0x03 | 0x04;
export type ReadFunction = ReadBitsFunction | ReadRegistersFunction;
export type SupportedFunction = (typeof FunctionCode)[keyof typeof FunctionCode];

const FUNCTION_NAMES: Record<number, string> = {
  1: "read coils",
  2: "read discrete inputs",
  3: "read holding registers",
  4: "read input registers",
  5: "write single coil",
  6: "write single register",
  7: "read exception status",
  8: "diagnostics",
  11: "get comm event counter",
  12: "get comm event log",
  15: "write multiple coils",
  16: "write multiple registers",
  17: "report server ID",
  20: "read file record",
  21: "write file record",
  22: "mask write register",
  23: "read/write multiple registers",
  24: "read FIFO queue",
  43: "encapsulated interface transport",
};

/** "read holding registers"; "exception to read coils" for 0x81; "function 0x41" when unnamed. */
export function functionName(code: number): string {
  if (code & 0x80) return `exception to ${functionName(code & 0x7f)}`;
  return FUNCTION_NAMES[code] ?? `function 0x${code.toString(16).toUpperCase().padStart(2, "0")}`;
}

export function isSupportedFunction(code: number): code is SupportedFunction {
  return (code >= 0x01 && code <= 0x06) || code === 0x0f || code === 0x10;
}

export const isReadBits = (code: number): code is ReadBitsFunction => code === 0x01 || code === 0x02;
export const isReadRegisters = (code: number): code is ReadRegistersFunction =>
  code === 0x03 || code === 0x04;

/** Exception codes (§7). */
export const ExceptionCode = {
  ILLEGAL_FUNCTION: 0x01,
  ILLEGAL_DATA_ADDRESS: 0x02,
  ILLEGAL_DATA_VALUE: 0x03,
  SERVER_DEVICE_FAILURE: 0x04,
  ACKNOWLEDGE: 0x05,
  SERVER_DEVICE_BUSY: 0x06,
  MEMORY_PARITY_ERROR: 0x08,
  GATEWAY_PATH_UNAVAILABLE: 0x0a,
  GATEWAY_TARGET_NO_RESPONSE: 0x0b,
} as const;

const EXCEPTION_NAMES: Record<number, string> = {
  1: "illegal function",
  2: "illegal data address",
  3: "illegal data value",
  4: "server device failure",
  5: "acknowledge",
  6: "server device busy",
  8: "memory parity error",
  10: "gateway path unavailable",
  11: "gateway target device failed to respond",
};

export function exceptionName(code: number): string {
  return EXCEPTION_NAMES[code] ?? `exception 0x${code.toString(16).toUpperCase().padStart(2, "0")}`;
}

/** Quantity limits per request (§6.1–6.4, 6.11, 6.12): they keep every PDU within 253 bytes. */
export const MAX_READ_BITS = 2000;
export const MAX_READ_REGISTERS = 125;
export const MAX_WRITE_COILS = 1968;
export const MAX_WRITE_REGISTERS = 123;
/** §4.1: PDU ≤ 253 bytes (RS-485 ADU 256 − slave address − CRC). */
export const MAX_PDU_LENGTH = 253;
/** FC 05 carries ON as FF 00 and OFF as 00 00; anything else is an illegal value. */
export const COIL_ON = 0xff00;
export const COIL_OFF = 0x0000;
