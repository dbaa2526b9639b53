import * as cjt188 from "./cjt188/index.ts";
import * as dlt645 from "./dlt645/index.ts";

/** A corpus of valid frames of every kind, for the fuzz run and the benchmark (not a test helper only). */
export interface SampleFrame {
  kind: string;
  protocol: "dlt645" | "cjt188";
  /** Builds the frame again (the benchmark times this). */
  build: () => Uint8Array;
  bytes: Uint8Array;
}

const validUntil = { year: 2030, month: 1, day: 1, hour: 12 };
const address = "201000000012";
const water = "78330011223344";

const BUILDERS: [kind: string, build: () => Uint8Array][] = [
  ["645-2007 read request", () => dlt645.buildRead(address, dlt645.DI.FORWARD_ENERGY_TOTAL, { preamble: 4 })],
  [
    "645-2007 energy reply",
    () => dlt645.buildReadReply(address, dlt645.DI.FORWARD_ENERGY_TOTAL, ["112280.26"]),
  ],
  [
    "645-2007 energy block reply",
    () =>
      dlt645.buildReadReply(address, dlt645.DI.FORWARD_ENERGY_BLOCK, [
        "1.29",
        "0.62",
        "0.60",
        "0.03",
        "0.02",
      ]),
  ],
  ["645-2007 balance reply", () => dlt645.buildReadReply(address, dlt645.DI.BALANCE, ["123.45"])],
  ["645-2007 status word 3 reply", () => dlt645.buildReadReply(address, dlt645.DI.STATUS_WORD_3, ["0050"])],
  [
    "645-2007 date reply",
    () => dlt645.buildReadReply(address, dlt645.DI.DATE, [{ year: 2016, month: 1, day: 11 }]),
  ],
  ["645-2007 relay control", () => dlt645.buildRelayControl(address, { command: "trip", validUntil })],
  ["645-2007 relay ack", () => dlt645.buildRelayAck(address)],
  ["645-2007 write price", () => dlt645.buildWrite(address, dlt645.DI.TARIFF_PRICE_1, ["0.5283"])],
  ["645-2007 error reply", () => dlt645.buildErrorReply(address, dlt645.Fn2007.READ, ["no-requested-data"])],
  ["645-2007 broadcast time", () => dlt645.buildBroadcastTime(validUntil)],
  ["645-2007 read address", () => dlt645.buildReadAddress({ preamble: 4 })],
  ["645-1997 read request", () => dlt645.buildRead(address, "9010")],
  [
    "645-1997 energy block reply",
    () => dlt645.buildReadReply(address, "901F", ["0.39", "0.00", "0.03", "0.24", "0.12"]),
  ],
  ["188 read 901F", () => cjt188.buildReadData(water, { preamble: 4 })],
  [
    "188 901F reply",
    () =>
      cjt188.buildReadDataReply(water, {
        currentTotal: "556677.00",
        settlementDayTotal: "556600.00",
        time: { year: 2015, month: 5, day: 11, hour: 22, minute: 1, second: 31 },
        status: { valve: "open" },
      }),
  ],
  ["188 valve close", () => cjt188.buildValveControl(water, "close", { ser: 1 })],
  ["188 valve reply", () => cjt188.buildValveControlReply(water, { valve: "closed" }, { ser: 1 })],
  ["188 read address", () => cjt188.buildReadAddress()],
  ["188 error reply", () => cjt188.buildErrorReply(water, cjt188.Fn.WRITE_DATA, { valve: "abnormal" })],
];

export function sampleFrames(): SampleFrame[] {
  return BUILDERS.map(([kind, build]) => ({
    kind,
    protocol: kind.startsWith("188") ? "cjt188" : "dlt645",
    build,
    bytes: build(),
  }));
}
