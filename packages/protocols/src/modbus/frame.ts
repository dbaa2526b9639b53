import { fail } from "../errors.ts";
import { copyBytes, toHex } from "../hex.ts";
import { carriedCrc, crc16Modbus } from "./crc.ts";
import { MAX_PDU_LENGTH } from "./functions.ts";

/**
 * Modbus ADUs around a PDU:
 * - RTU (Modbus over Serial Line V1.02 §2.5.1): slave address, PDU, CRC-16 low byte first;
 *   at most 256 bytes, and no length field: a frame is the whole input.
 * - TCP (Modbus Messaging on TCP/IP Implementation Guide V1.0b §3.1.3): MBAP header of
 *   transaction id, protocol id 0, length (unit id + PDU) and unit id, then the PDU.
 * Address 0 is the RTU broadcast (no reply); 248..255 are reserved.
 */
export type Transport = "rtu" | "tcp";

export interface ModbusAdu {
  transport: Transport;
  /** RTU slave address or TCP unit identifier. */
  unit: number;
  /** TCP only: the MBAP transaction identifier the reply echoes. */
  transactionId?: number;
  pdu: Uint8Array;
}

export const RTU_MAX_LENGTH = 256;
/** Slave address + function code + CRC: nothing shorter is a frame. */
export const RTU_MIN_LENGTH = 4;
export const MBAP_LENGTH = 7;
/** MBAP (7 bytes) + PDU (≤ 253): 260. */
export const TCP_MAX_LENGTH = MBAP_LENGTH + MAX_PDU_LENGTH;
export const BROADCAST = 0;

function checkUnit(unit: number, what: string): void {
  if (!Number.isInteger(unit) || unit < 0 || unit > 255)
    fail("bad-argument", `${what} ${unit} is not 0..255`);
}

function checkPdu(pdu: Uint8Array): void {
  if (pdu.length < 1 || pdu.length > MAX_PDU_LENGTH)
    fail("bad-argument", `a PDU has 1..${MAX_PDU_LENGTH} bytes, not ${pdu.length}`);
}

export function buildRtuFrame(slave: number, pdu: Uint8Array): Uint8Array {
  checkUnit(slave, "slave address");
  checkPdu(pdu);
  const out = new Uint8Array(pdu.length + 3);
  out[0] = slave;
  out.set(pdu, 1);
  const crc = crc16Modbus(out, 0, pdu.length + 1);
  out[pdu.length + 1] = crc & 0xff;
  out[pdu.length + 2] = crc >> 8;
  return out;
}

/** Parse one RTU frame: the whole input (bounded to 256 bytes), CRC checked before anything else. */
export function parseRtuFrame(bytes: Uint8Array): ModbusAdu {
  if (bytes.length < RTU_MIN_LENGTH)
    fail("truncated", `Modbus-RTU: ${bytes.length} bytes, a frame has at least ${RTU_MIN_LENGTH}`);
  if (bytes.length > RTU_MAX_LENGTH)
    fail("bad-length", `Modbus-RTU: ${bytes.length} bytes, a frame has at most ${RTU_MAX_LENGTH}`);
  const computed = crc16Modbus(bytes, 0, bytes.length - 2);
  const carried = carriedCrc(bytes, bytes.length);
  if (computed !== carried) {
    const wire = (crc: number) => toHex(Uint8Array.of(crc & 0xff, crc >> 8));
    fail(
      "checksum",
      `Modbus-RTU: the CRC is wrong: the frame carries ${wire(carried)}, its bytes give ${wire(computed)}`,
      bytes.length - 2,
    );
  }
  return { transport: "rtu", unit: bytes[0]!, pdu: copyBytes(bytes, 1, bytes.length - 2) };
}

export interface TcpHeader {
  transactionId: number;
  unit: number;
}

export function buildTcpFrame(header: TcpHeader, pdu: Uint8Array): Uint8Array {
  const { transactionId, unit } = header;
  if (!Number.isInteger(transactionId) || transactionId < 0 || transactionId > 0xffff)
    fail("bad-argument", `transaction id ${transactionId} is not 0..65535`);
  checkUnit(unit, "unit id");
  checkPdu(pdu);
  const length = pdu.length + 1;
  const out = new Uint8Array(6 + length);
  out.set([transactionId >> 8, transactionId & 0xff, 0, 0, length >> 8, length & 0xff, unit]);
  out.set(pdu, MBAP_LENGTH);
  return out;
}

/** Outcome of looking for an MBAP frame at one offset: used by parseTcpFrame and the splitter. */
export type TcpProbe =
  | { ok: true; length: number }
  | { ok: false; needMore: boolean; code: "truncated" | "bad-header" | "bad-length" };

export function probeTcpFrame(bytes: Uint8Array, at: number): TcpProbe {
  const available = bytes.length - at;
  if (available >= 4 && (bytes[at + 2] !== 0 || bytes[at + 3] !== 0))
    return { ok: false, needMore: false, code: "bad-header" };
  if (available < 6) return { ok: false, needMore: true, code: "truncated" };
  const length = (bytes[at + 4]! << 8) | bytes[at + 5]!;
  if (length < 2 || length > MAX_PDU_LENGTH + 1) return { ok: false, needMore: false, code: "bad-length" };
  if (available < 6 + length) return { ok: false, needMore: true, code: "truncated" };
  return { ok: true, length: 6 + length };
}

const TCP_FAILURES = {
  truncated: "the input ends before the length field says the frame does",
  "bad-header": "the protocol identifier is not 0",
  "bad-length": `the length field is outside 2..${MAX_PDU_LENGTH + 1}`,
};

/** Parse the MBAP frame at the start of `bytes` (trailing bytes are left for the next frame). */
export function parseTcpFrame(bytes: Uint8Array): ModbusAdu & { transactionId: number; length: number } {
  const probe = probeTcpFrame(bytes, 0);
  if (!probe.ok) fail(probe.code, `Modbus TCP: ${TCP_FAILURES[probe.code]}`, 0);
  return {
    transport: "tcp",
    transactionId: (bytes[0]! << 8) | bytes[1]!,
    unit: bytes[6]!,
    pdu: copyBytes(bytes, MBAP_LENGTH, probe.length),
    length: probe.length,
  };
}

/** Frame a PDU for either transport (TCP needs a transaction id). */
export function buildAdu(adu: ModbusAdu): Uint8Array {
  if (adu.transport === "rtu") return buildRtuFrame(adu.unit, adu.pdu);
  return buildTcpFrame({ transactionId: adu.transactionId ?? 0, unit: adu.unit }, adu.pdu);
}
