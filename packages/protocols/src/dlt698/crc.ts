/**
 * CRC-16/X.25 (DL/T 698.45 §7.1.2 "FCS" and HCS): polynomial 0x1021 reflected (0x8408),
 * initial value 0xFFFF, final XOR 0xFFFF, least significant byte first on the wire.
 * The standard check value: "123456789" → 0x906E.
 */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

export function crc16x25(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let crc = 0xffff;
  for (let i = from; i < to; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ bytes[i]!) & 0xff]!;
  return (crc ^ 0xffff) & 0xffff;
}
