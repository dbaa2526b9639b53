import { decodeAdu } from "./decode.ts";
import { buildRtuFrame, buildTcpFrame, parseRtuFrame, parseTcpFrame } from "./frame.ts";
import {
  encodeReply,
  encodeRequest,
  readCoils,
  readHoldingRegisters,
  readInputRegisters,
  writeMultipleRegisters,
  writeSingleCoil,
} from "./pdu.ts";
import { encodeRegisterValue } from "./registers.ts";

/** Valid Modbus frames of the kinds a rail-meter bus carries, for the fuzz run and the benchmark. */
export interface ModbusSample {
  kind: string;
  transport: "rtu" | "tcp";
  build: () => Uint8Array;
  bytes: Uint8Array;
  /** Parse + decode, as the gateway does on receipt. */
  decode: (bytes: Uint8Array) => unknown;
}

const float = { type: "float32", scale: "1", unit: "kWh", byteOrder: "big", wordOrder: "big" } as const;
// SDM120-style block 0x0000..0x004B: voltage, current... energy as float32.
const energyBlock = Array.from({ length: 38 }, (_, i) =>
  encodeRegisterValue(float, `${1000 + i * 12.5}`),
).flat();

const rtu = (build: () => Uint8Array) => ({
  transport: "rtu" as const,
  build,
  decode: (bytes: Uint8Array) => decodeAdu(parseRtuFrame(bytes)),
});
const tcp = (build: () => Uint8Array) => ({
  transport: "tcp" as const,
  build,
  decode: (bytes: Uint8Array) => decodeAdu(parseTcpFrame(bytes)),
});

const KINDS: [string, ReturnType<typeof rtu> | ReturnType<typeof tcp>][] = [
  [
    "modbus rtu read 03 request",
    rtu(() => buildRtuFrame(1, encodeRequest(readHoldingRegisters(0x2000, 16)))),
  ],
  ["modbus rtu read 04 request", rtu(() => buildRtuFrame(1, encodeRequest(readInputRegisters(0, 76))))],
  [
    "modbus rtu 04 reply 76 regs",
    rtu(() =>
      buildRtuFrame(
        1,
        encodeReply({ kind: "read-registers", functionCode: 4, byteCount: 152, registers: energyBlock }),
      ),
    ),
  ],
  [
    "modbus rtu 01 reply 16 coils",
    rtu(() =>
      buildRtuFrame(
        1,
        encodeReply({
          kind: "read-bits",
          functionCode: 1,
          byteCount: 2,
          bits: Array.from({ length: 16 }, (_, i) => i % 3 === 0),
        }),
      ),
    ),
  ],
  [
    "modbus rtu write 10 request",
    rtu(() => buildRtuFrame(1, encodeRequest(writeMultipleRegisters(0x0050, [0x0001, 0xe240])))),
  ],
  [
    "modbus rtu write 10 reply",
    rtu(() =>
      buildRtuFrame(
        1,
        encodeReply({ kind: "write-multiple", functionCode: 0x10, address: 0x50, quantity: 2 }),
      ),
    ),
  ],
  ["modbus rtu write 05 request", rtu(() => buildRtuFrame(1, encodeRequest(writeSingleCoil(0x0000, false))))],
  ["modbus rtu exception 83 02", rtu(() => buildRtuFrame(1, Uint8Array.of(0x83, 0x02)))],
  ["modbus rtu read 01 request", rtu(() => buildRtuFrame(1, encodeRequest(readCoils(0, 16))))],
  [
    "modbus tcp read 04 request",
    tcp(() => buildTcpFrame({ transactionId: 7, unit: 1 }, encodeRequest(readInputRegisters(0, 76)))),
  ],
  [
    "modbus tcp 03 reply 10 regs",
    tcp(() =>
      buildTcpFrame(
        { transactionId: 7, unit: 1 },
        encodeReply({
          kind: "read-registers",
          functionCode: 3,
          byteCount: 20,
          registers: energyBlock.slice(0, 10),
        }),
      ),
    ),
  ],
];

export function modbusSamples(): ModbusSample[] {
  return KINDS.map(([kind, sample]) => ({ kind, ...sample, bytes: sample.build() }));
}
