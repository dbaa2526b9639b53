/**
 * CRC-16/MODBUS (Modbus over Serial Line V1.02, §6.2.2): reflected polynomial 0xA001, initial
 * value 0xFFFF, no final XOR; sent low byte first. Table-driven: the gateway checks every reply.
 */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    table[byte] = crc;
  }
  return table;
})();

/** CRC of bytes[from, to). */
export function crc16Modbus(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let crc = 0xffff;
  for (let i = from; i < to; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ bytes[i]!) & 0xff]!;
  return crc;
}

/** The CRC a frame carries in its last two bytes (low byte first). */
export function carriedCrc(bytes: Uint8Array, end: number): number {
  return bytes[end - 2]! | (bytes[end - 1]! << 8);
}
