import * as cjt188 from "./cjt188/index.ts";
import * as dlt645 from "./dlt645/index.ts";
import * as dlt698 from "./dlt698/index.ts";

/** A corpus of valid frames of every kind, for the fuzz run and the benchmark (not a test helper only). */
export interface SampleFrame {
  kind: string;
  protocol: "dlt645" | "cjt188" | "dlt698";
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
  ...DLT698_BUILDERS(),
];

function DLT698_BUILDERS(): [kind: string, build: () => Uint8Array][] {
  const meter = "202600000042";
  const energy = (total: number): dlt698.Data => ({
    type: "array",
    items: [total, 1000, 2000, 3000, total - 6000].map((value) => ({ type: "double-long-unsigned", value })),
  });
  const time = {
    year: 2026,
    month: 11,
    day: 29,
    weekday: 0,
    hour: 11,
    minute: 30,
    second: 0,
    milliseconds: 0,
  };
  return [
    ["698 GET request", () => dlt698.buildGet(meter, [dlt698.OAD.FORWARD_ACTIVE_ENERGY])],
    [
      "698 GET request list",
      () =>
        dlt698.buildGet(meter, [
          dlt698.OAD.FORWARD_ACTIVE_ENERGY,
          dlt698.OAD.WALLET,
          dlt698.OAD.VOLTAGE,
          dlt698.OAD.RELAY_COMMAND_STATE,
        ]),
    ],
    [
      "698 GET response energy",
      () =>
        dlt698.buildGetResponse(meter, [
          { oad: dlt698.OAD.FORWARD_ACTIVE_ENERGY, result: { data: energy(11228026) } },
        ]),
    ],
    [
      "698 GET response list",
      () =>
        dlt698.buildGetResponse(meter, [
          { oad: dlt698.OAD.FORWARD_ACTIVE_ENERGY, result: { data: energy(11228026) } },
          {
            oad: dlt698.OAD.WALLET,
            result: {
              data: {
                type: "structure",
                items: [
                  { type: "double-long-unsigned", value: 12345 },
                  { type: "double-long-unsigned", value: 7 },
                ],
              },
            },
          },
          { oad: dlt698.OAD.RELAY_COMMAND_STATE, result: { dar: 4 } },
        ]),
    ],
    ["698 ACTION trip", () => dlt698.buildTrip(meter, { durationMinutes: 0 })],
    ["698 ACTION response", () => dlt698.buildActionResponse(meter, dlt698.OMD.TRIP, 0)],
    ["698 LINK login", () => dlt698.buildLinkRequest(meter, { type: "login", heartbeatSeconds: 300, time })],
    [
      "698 LINK response",
      () =>
        dlt698.buildLinkResponse(meter, {
          request: {
            service: "link-request",
            piid: 0,
            requestType: "heartbeat",
            heartbeatSeconds: 300,
            time,
          },
          receivedAt: time,
        }),
    ],
    [
      "698 SECURITY request",
      () =>
        dlt698.buildApduFrame(meter, {
          service: "security-request",
          ciphered: true,
          data: "8E5C1A2B3C4D5E6F708192A3B4C5D6E7F8091A2B",
          verification: { kind: "sid-mac", sid: { id: 0x81000001, extra: "0000" }, mac: "A1B2C3D4" },
        }),
    ],
  ];
}

export function sampleFrames(): SampleFrame[] {
  return BUILDERS.map(([kind, build]) => ({
    kind,
    protocol: kind.startsWith("188") ? "cjt188" : kind.startsWith("698") ? "dlt698" : "dlt645",
    build,
    bytes: build(),
  }));
}
