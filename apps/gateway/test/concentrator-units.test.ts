import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  ConcentratorLink,
  concentratorId,
  concentratorPassword,
  type FileRow,
  type MeterInfo,
  matchConcentratorLogin,
  planMeterFile,
  resolveSettings,
  silentLogger,
} from "@meterline/gateway";
import { qgdw1376, type SplitFrame } from "@meterline/protocols";
import { Bus } from "../src/bus/bus.ts";
import type { FrameLink } from "../src/bus/link.ts";
import type { DtuConnection } from "../src/dtu/connection.ts";
import { newCounters } from "../src/stats.ts";

const terminal = { area: "3401", terminal: 0x0102, master: 0, group: false };
const PASSWORD = "00112233445566778899AABBCCDDEEFF";

function meter(address: string, protocol: MeterInfo["protocol"], channel = 31): MeterInfo {
  return {
    id: `meter-${address}`,
    address,
    protocol,
    transport: "tcp",
    collectorId: "34010102",
    channel,
    model: {},
    pollIntervalMs: 0,
  };
}

describe("concentrator login", () => {
  test("the first frame names the collector by area and terminal address and carries the password", () => {
    const login = qgdw1376.buildLogin(terminal, { seq: 5, password: PASSWORD.toLowerCase() });
    const match = matchConcentratorLogin(Uint8Array.of(...login, 0x68), 128);
    assert.equal(match.status, "ok");
    if (match.status !== "ok") return;
    assert.deepEqual(
      [match.collectorId, match.login.seq, match.login.password, match.length],
      ["34010102", 5, PASSWORD, login.length],
    );
    assert.equal(concentratorId({ area: "3401", terminal: 1 }), "34010001");
  });

  test("half a login waits; a heartbeat, a DTU packet, a group address or an oversized L are no login", () => {
    const login = qgdw1376.buildLogin(terminal, { password: PASSWORD });
    assert.equal(matchConcentratorLogin(login.subarray(0, 10), 128).status, "need-more");
    assert.equal(matchConcentratorLogin(qgdw1376.buildHeartbeat(terminal), 128).status, "none");
    assert.equal(matchConcentratorLogin(new TextEncoder().encode("REG:DTU1,x\n"), 128).status, "none");
    const group = qgdw1376.buildLogin({ ...terminal, group: true }, { password: PASSWORD });
    assert.equal(matchConcentratorLogin(group, 128).status, "none");
    assert.equal(matchConcentratorLogin(login, login.length - 1).status, "none", "L above the bound");
  });

  test("a collector's secret reads as a 1376.1 password: 32 hex digits, or text padded to 16 bytes", () => {
    assert.equal(concentratorPassword(PASSWORD.toLowerCase()), PASSWORD);
    assert.equal(concentratorPassword("abc"), `616263${"00".repeat(13)}`);
    assert.equal(concentratorPassword("x".repeat(17)), undefined);
    assert.equal(concentratorPassword(undefined), undefined);
  });
});

describe("meter file plan", () => {
  const A = "201000000000";
  const B = "201000000001";
  const C = "201000000002";

  test("an empty file gets every meter, pn = row index, with its protocol code, port and baud", () => {
    const plan = planMeterFile([], [meter(B, "dlt698", 2), meter(A, "dlt645-2007")]);
    assert.deepEqual(
      plan.writes.map((row) => [row.index, row.pn, row.address, row.protocol, row.port, row.baud]),
      [
        [1, 1, A, 30, 31, 2400],
        [2, 2, B, 32, 2, 9600],
      ],
    );
    assert.deepEqual(plan.skipped, []);
  });

  test("meters keep their rows; a removed one is deleted with pn 0; a newcomer takes the free row", () => {
    const current: FileRow[] = [
      { index: 1, pn: 1, address: A, protocol: 30, port: 31, baud: 2400 },
      { index: 2, pn: 2, address: B, protocol: 30, port: 31, baud: 2400 },
      { index: 5, pn: 5, address: "999999999999", protocol: 30, port: 31, baud: 2400 },
    ];
    const plan = planMeterFile(current, [meter(B, "dlt645-2007"), meter(C, "dlt698")]);
    assert.deepEqual(
      plan.writes.map((row) => [row.index, row.pn, row.address]),
      [
        [1, 1, C],
        [5, 0, "999999999999"],
      ],
      "B is unchanged and not rewritten; C overwrites A's freed row; the stranger's row is deleted",
    );
    assert.deepEqual(
      plan.rows.map((row) => [row.index, row.address]),
      [
        [1, C],
        [2, B],
      ],
    );
  });

  test("a changed port or protocol rewrites the meter's own row; water meters are not filed", () => {
    const current: FileRow[] = [{ index: 7, pn: 7, address: A, protocol: 30, port: 31, baud: 2400 }];
    const water = { ...meter("12345678901234", "cjt188"), protocol: "cjt188" as const };
    const plan = planMeterFile(current, [meter(A, "dlt645-2007", 2), water]);
    assert.deepEqual(
      plan.writes.map((row) => [row.index, row.pn, row.port]),
      [[7, 7, 2]],
    );
    assert.deepEqual(plan.skipped, ["12345678901234"]);
  });
});

describe("a concentrator's word that the meter was silent", () => {
  test("ends the exchange in flight as a timeout at once, counted like one", async () => {
    let noAnswer: (() => void) | undefined;
    const sent: string[] = [];
    const link: FrameLink = {
      collectorId: "34010001",
      transport: "tcp",
      kind: "concentrator",
      closed: false,
      send: (_bytes, address) => {
        sent.push(address);
        return true;
      },
      setReceiver: (_receiver: (frame: SplitFrame) => void) => undefined,
      setNoAnswer: (listener) => {
        noAnswer = listener;
      },
      onClose: () => undefined,
      close: () => undefined,
    };
    const counters = newCounters();
    const bus = new Bus(link, counters);
    noAnswer?.(); // nothing in flight: nothing happens
    const exchange = bus.exchange(
      { bytes: Uint8Array.of(0x68), address: "201000000000", accept: () => undefined },
      600_000,
    );
    noAnswer?.();
    assert.deepEqual(await exchange, { outcome: "timeout" });
    assert.deepEqual([sent, counters.timeouts, bus.busy], [["201000000000"], 1, false]);
  });
});

describe("concentrator link", () => {
  function rig() {
    const written: Uint8Array[] = [];
    let receiver: ((frame: SplitFrame) => void) | undefined;
    const connection = {
      collectorId: "34010102",
      closed: false,
      send: (bytes: Uint8Array) => {
        written.push(bytes);
        return true;
      },
      setReceiver: (listener: (frame: SplitFrame) => void) => {
        receiver = listener;
      },
      onClose: () => undefined,
      close: () => undefined,
    };
    const counters = newCounters();
    const link = new ConcentratorLink(
      connection as unknown as DtuConnection,
      { address: terminal, seq: 1, password: PASSWORD },
      { settings: resolveSettings({}), counters, logger: silentLogger },
    );
    const up = (bytes: Uint8Array) => receiver?.({ protocol: "qgdw1376", bytes, offset: 0 });
    return { link, written, counters, up };
  }

  test("a forwarded reply too short to hold a meter frame, or junk, is dropped without harm", () => {
    const { link, counters, up } = rig();
    const delivered: SplitFrame[] = [];
    link.setReceiver((frame) => delivered.push(frame));
    up(qgdw1376.buildForwardReply(terminal, 31, Uint8Array.of(0x68, 0x16, 0x00)));
    up(Uint8Array.of(0x68, 0x00, 0x16));
    assert.deepEqual(delivered, []);
    assert.equal(counters.unexpectedFrames, 1, "the undecodable frame is counted");
  });

  test("a denied or empty answer to the latest forward ends the bus's wait; a stale one does not", async () => {
    const { link, written, up } = rig();
    let ended = 0;
    link.setNoAnswer(() => ended++);
    link.setMeters([meter("201000000000", "dlt645-2007")]);
    // The file sync asks first (AFN 0A): answer with an empty file, then confirm the write (AFN 04).
    const seqOf = (bytes: Uint8Array) => qgdw1376.parseFrame(bytes).seq & 0x0f;
    const afnOf = (bytes: Uint8Array) => qgdw1376.parseFrame(bytes).afn;
    assert.deepEqual(written.map(afnOf), [0x0a]);
    const emptyFile = qgdw1376.encodeMeterFile([]);
    up(
      qgdw1376.buildResponse(terminal, 0x0a, [{ pn: 0, fn: 10, data: emptyFile }], {
        seq: seqOf(written[0]!),
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(written.map(afnOf), [0x0a, 0x04]);
    assert.ok(link.send(Uint8Array.of(0x68), "201000000000"), "held while the file is written");
    assert.equal(written.length, 2);
    up(qgdw1376.buildTerminalConfirm(terminal, true, { seq: seqOf(written[1]!) }));
    await link.fileSynced;
    assert.deepEqual(written.map(afnOf), [0x0a, 0x04, 0x10], "the held forward went out after the write");
    const first = seqOf(written.at(-1)!);
    assert.ok(link.send(Uint8Array.of(0x68), "201000000000"));
    const second = seqOf(written.at(-1)!);
    up(qgdw1376.buildForwardReply(terminal, 31, new Uint8Array(0), { seq: first }));
    assert.equal(ended, 0, "an empty answer to an older forward changes nothing");
    up(qgdw1376.buildTerminalConfirm(terminal, false, { seq: second }));
    assert.equal(ended, 1, "a deny of the latest forward ends the wait");
    assert.equal(link.send(Uint8Array.of(0x68), "999999999999"), false, "no port for an unknown meter");
  });
});
