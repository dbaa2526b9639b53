import * as dlt645 from "../dlt645/index.ts";
import * as qgdw1376 from "./index.ts";

/** Valid Q/GDW 1376.1 frames of every kind the gateway meets, for the fuzz run and the benchmark. */
export interface Qgdw1376Sample {
  kind: string;
  build: () => Uint8Array;
  bytes: Uint8Array;
}

const target = { area: "3401", terminal: 0x0102 };
const terminal = { ...target, master: 1, group: false };
const readAt = { year: 2026, month: 11, day: 29, hour: 10, minute: 15 };
const validUntil = { year: 2030, month: 1, day: 1, hour: 12 };

const BUILDERS: [kind: string, build: () => Uint8Array][] = [
  ["1376 login", () => qgdw1376.buildLogin({ ...terminal, master: 0 }, { seq: 1 })],
  [
    "1376 heartbeat + clock",
    () => qgdw1376.buildHeartbeat({ ...terminal, master: 0 }, { seq: 2, clock: readAt }),
  ],
  ["1376 login confirm", () => qgdw1376.buildLoginConfirm({ address: { ...terminal, master: 0 }, seq: 1 })],
  [
    "1376 read 0C p1..p8 F129 F167",
    () => qgdw1376.buildReadClass1(target, [1, 2, 3, 4, 5, 6, 7, 8], [129, 167], { seq: 3 }),
  ],
  [
    "1376 0C F129 + F167 answer",
    () =>
      qgdw1376.buildResponse(
        terminal,
        0x0c,
        [
          {
            pn: 1,
            fn: 129,
            data: qgdw1376.encodeTariffReadings(readAt, ["1234.5678", "600.0000", "634.5678", "0", "0"]),
          },
          {
            pn: 1,
            fn: 167,
            data: qgdw1376.encodePurchase({
              readAt,
              purchaseCount: 3,
              remainingAmount: "88.8800",
              cumulativePurchasedAmount: "300",
            }),
          },
        ],
        { seq: 3 },
      ),
  ],
  [
    "1376 read 0D F161",
    () => qgdw1376.buildReadClass2(target, [1, 2], 161, { year: 2026, month: 11, day: 28 }),
  ],
  [
    "1376 meter file write (2)",
    () =>
      qgdw1376.buildWriteMeterFile(target, [
        { index: 1, pn: 1, port: 2, protocol: 30, address: "201000000012" },
        { index: 2, pn: 2, port: 31, protocol: 1, address: "000017109377" },
      ]),
  ],
  [
    "1376 forward 645 trip",
    () => qgdw1376.buildForwardRelay(target, 2, "201000000012", { command: "trip", validUntil }, { seq: 4 }),
  ],
  [
    "1376 forward reply",
    () => qgdw1376.buildForwardReply(terminal, 2, dlt645.buildRelayAck("201000000012"), { seq: 4 }),
  ],
  [
    "1376 events answer",
    () =>
      qgdw1376.buildResponse(
        terminal,
        0x0e,
        [
          {
            pn: 0,
            fn: 1,
            data: qgdw1376.encodeEvents({ important: 1, normal: 0 }, 0, 1, [
              { erc: 14, data: new Uint8Array(10) },
            ]),
          },
        ],
        { ec: { important: 1, normal: 0 } },
      ),
  ],
];

export function qgdw1376Samples(): Qgdw1376Sample[] {
  return BUILDERS.map(([kind, build]) => ({ kind, build, bytes: build() }));
}
