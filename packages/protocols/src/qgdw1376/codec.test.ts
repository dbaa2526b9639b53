import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as dlt645 from "../dlt645/index.ts";
import { concatBytes, parseHex, toHex } from "../hex.ts";
import { encodeField } from "../values.ts";
import * as qgdw1376 from "./index.ts";

const concentrator = { area: "3401", terminal: 0x0102 };
const terminalAddress = { ...concentrator, master: 0, group: false };
const readAt = { year: 2026, month: 11, day: 29, hour: 10, minute: 15 };
const decodeBytes = (bytes: Uint8Array) => {
  const decoded = qgdw1376.decodeFrame(qgdw1376.parseFrame(bytes));
  assert.deepEqual(decoded.warnings, []);
  return decoded;
};
const values = (fields: { name: string; value: string | null }[]) =>
  Object.fromEntries(fields.map((field) => [field.name, field.value]));

describe("Q/GDW 1376.1 builders and decoders", () => {
  test("data unit identifiers: p0, pn groups, Fn groups, all points", () => {
    assert.deepEqual(toHex(qgdw1376.encodeDataUnitId(0, 1)), "00 00 01 00");
    assert.deepEqual(toHex(qgdw1376.encodeDataUnitId(1, 129)), "01 01 01 10");
    assert.deepEqual(toHex(qgdw1376.encodeDataUnitId(9, 10)), "01 02 02 01");
    assert.deepEqual(toHex(qgdw1376.encodeDataUnitId(2040, 248)), "80 FF 80 1E");
    assert.deepEqual(
      qgdw1376.encodeDataUnitIds([1, 2, 8, 9], [129, 130, 2]).map((id) => toHex(id)),
      ["83 01 02 00", "83 01 03 10", "01 02 02 00", "01 02 03 10"],
    );
    const merged = qgdw1376.decodeDataUnitId(parseHex("83 01 03 10"));
    assert.deepEqual([merged.pns, merged.fns, merged.allPoints], [[1, 2, 8], [129, 130], false]);
    const all = qgdw1376.decodeDataUnitId(parseHex("FF 00 01 10"));
    assert.deepEqual([all.pns, all.allPoints, all.fns], [[], true, [129]]);
    assert.throws(() => qgdw1376.encodeDataUnitId(2041, 1), /pn 2041/);
    assert.throws(() => qgdw1376.encodeDataUnitId(1, 249), /F249/);
  });

  test("a read of several pn and Fn: one identifier per Fn group, answered unit by unit", () => {
    const request = qgdw1376.buildReadClass1(concentrator, [1, 2], [129, 167], { seq: 5 });
    const decoded = decodeBytes(request);
    assert.equal(decoded.control.raw, 0x4b);
    assert.deepEqual(
      decoded.units.map((u) => u.label),
      // F129 and F167 are in different DT2 groups: two identifiers, each naming p1 and p2.
      ["p1 F129", "p2 F129", "p1 F167", "p2 F167"],
    );
    const purchase = qgdw1376.encodePurchase({
      readAt,
      purchaseCount: 12,
      remainingAmount: "123.4500",
      cumulativePurchasedAmount: "2000",
      remainingEnergy: "215.40",
      alarmEnergy: "20",
    });
    const answer = qgdw1376.buildResponse(
      terminalAddress,
      0x0c,
      [
        {
          pn: 1,
          fn: 129,
          data: qgdw1376.encodeTariffReadings(readAt, ["1234.5678", "600.0000", "634.5678"]),
        },
        { pn: 1, fn: 167, data: purchase },
        { pn: 2, fn: 129, data: qgdw1376.encodeTariffReadings(readAt, [null]) },
      ],
      { seq: 5 },
    );
    const reply = decodeBytes(answer);
    assert.ok(qgdw1376.isReplyTo(decoded, reply));
    const [energy, money, absent] = reply.units.map((u) => u.value);
    assert.ok(energy?.type === "readings" && money?.type === "purchase" && absent?.type === "readings");
    assert.equal(energy.readAt?.value, "2026-11-29 10:15");
    assert.equal(energy.tariffCount, 2);
    assert.deepEqual(values(energy.fields), {
      "forward active energy total": "1234.5678",
      "forward active energy tariff 1": "600.0000",
      "forward active energy tariff 2": "634.5678",
    });
    assert.equal(energy.fields[0]!.kind === "number" && energy.fields[0]!.unit, "kWh");
    assert.equal(money.purchaseCount, 12);
    assert.match(toHex(purchase), /^15 10 29 11 26 12 00 /, "A.8: the purchase count is BCD");
    assert.deepEqual(values(money.fields), {
      "remaining amount": "123.4500",
      "cumulative purchased amount": "2000.0000",
      "remaining energy": "215.40",
      "overdraft energy": "0.00",
      "cumulative purchased energy": "0.00",
      "credit threshold energy": "0.00",
      "alarm energy": "20.00",
      "fault energy": "0.00",
    });
    assert.equal(money.fields[0]!.unit, "yuan");
    assert.equal(absent.fields[0]!.status, "absent");
  });

  test("0C F168 settlement: settled and unsettled energies, total then tariffs", () => {
    const settled = qgdw1376.encodeTariffReadings(readAt, ["100.0000", "40.0000", "60.0000"]);
    const unsettled = qgdw1376.encodeTariffReadings(readAt, ["5.5000", "2.0000", "3.5000"]).subarray(6);
    const reply = decodeBytes(
      qgdw1376.buildResponse(terminalAddress, 0x0c, [
        { pn: 4, fn: 168, data: concatBytes(settled, unsettled) },
      ]),
    );
    const value = reply.units[0]!.value;
    assert.ok(value.type === "settlement");
    assert.equal(value.tariffCount, 2);
    assert.deepEqual(values(value.settled), {
      "settled active energy total": "100.0000",
      "settled active energy tariff 1": "40.0000",
      "settled active energy tariff 2": "60.0000",
    });
    assert.deepEqual(values(value.unsettled), {
      "unsettled active energy total": "5.5000",
      "unsettled active energy tariff 1": "2.0000",
      "unsettled active energy tariff 2": "3.5000",
    });
  });

  test("AFN 10 F9 direct read request and F10 direct switch answer decode field by field", () => {
    // F9 down: port 2, no relay (FF), meter 201000000012, 645-2007 identifier 00010000.
    const read = parseHex("02 FF 12 00 00 00 10 20 01 00 00 01 00");
    const request = decodeBytes(
      qgdw1376.buildMessage({
        address: { ...terminalAddress, master: 1 },
        control: 0x4b,
        afn: 0x10,
        seq: 0x60,
        units: [{ pn: 0, fn: 9, data: read }],
      }),
    );
    assert.deepEqual(request.units[0]!.value, {
      type: "direct-read",
      port: 2,
      relays: [],
      meter: "201000000012",
      identifierType: 1,
      identifier: "00010000",
    });
    const answer = decodeBytes(
      qgdw1376.buildResponse(terminalAddress, 0x10, [
        { pn: 0, fn: 10, data: parseHex("02 12 00 00 00 10 20 01 1A") },
      ]),
    );
    assert.deepEqual(answer.units[0]!.value, {
      type: "direct-switch-reply",
      port: 2,
      meter: "201000000012",
      result: 1,
      status: 0x1a,
    });
    assert.equal(answer.units[0]!.name, "forward the master's direct meter trip / close");
  });

  test("0C F25: power, power factor, voltage and current in the standard's order", () => {
    const number = (bytes: number, decimals: number, signed: boolean, value: string) =>
      encodeField({ kind: "number", bytes, decimals, signed, unit: "" }, value);
    const data = concatBytes(
      qgdw1376.encodeA15(readAt),
      ...["1.2345", "0.4000", "0.4000", "-0.4345"].map((v) => number(3, 4, true, v)),
      ...["0.1000", "0", "0", "0.1000"].map((v) => number(3, 4, true, v)),
      ...["99.5", "99.0", "100.0", "-98.7"].map((v) => number(2, 1, true, v)),
      ...["229.7", "230.1", "231.0"].map((v) => number(2, 1, false, v)),
      ...["1.250", "-1.750", "0.000", "0.010"].map((v) => number(3, 3, true, v)),
      ...["1.2400", "0.4100", "0.4000", "0.4300"].map((v) => number(3, 4, true, v)),
    );
    assert.equal(data.length, 67);
    const reply = decodeBytes(qgdw1376.buildResponse(terminalAddress, 0x0c, [{ pn: 3, fn: 25, data }]));
    const value = reply.units[0]!.value;
    assert.ok(value.type === "readings");
    const read = values(value.fields);
    assert.equal(read["active power total"], "1.2345");
    assert.equal(read["active power phase C"], "-0.4345");
    assert.equal(read["power factor phase C (%)"], "-98.7");
    assert.equal(read["voltage phase A"], "229.7");
    assert.equal(read["current phase B"], "-1.750");
    assert.equal(read["zero-sequence current"], "0.010");
    assert.equal(read["apparent power phase C"], "0.4300");
    assert.deepEqual(
      value.fields.filter((f) => f.name.startsWith("voltage")).map((f) => f.kind === "number" && f.unit),
      ["V", "V", "V"],
    );
  });

  test("0D F161 daily frozen energy: request with Td_d, answer with the frozen day", () => {
    const request = decodeBytes(
      qgdw1376.buildReadClass2(concentrator, [1, 9], 161, { year: 2026, month: 11, day: 28 }),
    );
    assert.deepEqual(
      request.units.map((u) => [u.label, u.value.type === "frozen-request" && u.value.frozen.value]),
      [
        ["p1 F161", "2026-11-28"],
        ["p9 F161", "2026-11-28"],
      ],
    );
    const month = decodeBytes(
      qgdw1376.buildReadClass2(concentrator, [1], 177, { year: 2026, month: 10, day: 1 }),
    );
    assert.ok(month.units[0]!.value.type === "frozen-request");
    assert.equal(month.units[0]!.value.frozen.value, "2026-10");
    assert.throws(
      () => qgdw1376.buildReadClass2(concentrator, [1], 129, { year: 2026, month: 1, day: 1 }),
      /not a daily/,
    );
    const data = qgdw1376.encodeDailyFrozenReadings({ year: 2026, month: 11, day: 28 }, readAt, ["88.0100"]);
    const reply = decodeBytes(qgdw1376.buildResponse(terminalAddress, 0x0d, [{ pn: 1, fn: 161, data }]));
    const value = reply.units[0]!.value;
    assert.ok(value.type === "readings");
    assert.equal(value.frozen?.value, "2026-11-28");
    assert.deepEqual(values(value.fields), { "forward active energy total": "88.0100" });
  });

  test("AFN 04 F10 meter file: written by the gateway, read back by AFN 0A", () => {
    const meters: qgdw1376.MeterFileInput[] = [
      {
        index: 1,
        pn: 1,
        port: 2,
        baud: 2400,
        protocol: qgdw1376.MeterProtocol.DLT645_2007,
        address: "201000000012",
      },
      {
        index: 2,
        pn: 2,
        port: 31,
        baud: null,
        protocol: qgdw1376.MeterProtocol.DLT645_1997,
        address: "000017109377",
        password: "000000123456",
        tariffCount: 0,
        integerDigits: 7,
        decimalDigits: 4,
        collector: "990000000001",
        userClass: 5,
        userSubclass: 1,
      },
    ];
    const write = qgdw1376.buildWriteMeterFile(concentrator, meters, {
      seq: 2,
      pw: "00112233445566778899AABBCCDDEEFF",
    });
    const decoded = decodeBytes(write);
    assert.equal(decoded.control.raw, 0x4a);
    assert.equal(decoded.aux.pw, "00112233445566778899AABBCCDDEEFF");
    assert.equal(write.length, 8 + 8 + 4 + 2 + 27 * 2 + 16);
    const value = decoded.units[0]!.value;
    assert.ok(value.type === "meter-file");
    assert.deepEqual(value.meters, [
      {
        index: 1,
        pn: 1,
        port: 2,
        baud: 2400,
        protocol: 30,
        protocolName: "DL/T 645-2007",
        address: "201000000012",
        password: "000000000000",
        tariffCount: 4,
        integerDigits: 6,
        decimalDigits: 2,
        collector: "000000000000",
        userClass: 0,
        userSubclass: 0,
      },
      { ...meters[1], protocolName: "DL/T 645-1997" },
    ]);
    const query = decodeBytes(qgdw1376.buildQueryMeterFile(concentrator, [1, 2]));
    assert.deepEqual(query.units[0]!.value, { type: "meter-file-query", indexes: [1, 2] });
    const answer = decodeBytes(
      qgdw1376.buildResponse(terminalAddress, 0x0a, [
        { pn: 0, fn: 10, data: qgdw1376.encodeMeterFile(meters) },
      ]),
    );
    assert.ok(answer.units[0]!.value.type === "meter-file");
    assert.deepEqual(answer.units[0]!.value.meters, value.meters);
    assert.throws(() => qgdw1376.encodeMeterEntry({ ...meters[0]!, baud: 300 }), /baud 300/);
  });

  test("AFN 10 F1 forwards a 645 relay trip built by the dlt645 package, and its acknowledgement back", () => {
    const relay = { command: "trip", validUntil: { year: 2026, month: 11, day: 29, hour: 12 } } as const;
    const request = qgdw1376.buildForwardRelay(concentrator, 2, "201000000012", relay, { seq: 7 });
    const decoded = decodeBytes(request);
    assert.equal(decoded.afnHex, "10H");
    assert.equal(decoded.aux.pw, "0".repeat(32));
    const value = decoded.units[0]!.value;
    assert.ok(value.type === "forward-request");
    assert.deepEqual(
      [value.port, value.serial, value.frameTimeoutMs, value.byteTimeoutMs],
      [2, { baud: 2400, parity: "even", dataBits: 8, stopBits: 1 }, 2000, 500],
    );
    assert.equal(value.frame, toHex(dlt645.buildRelayControl("201000000012", relay, { preamble: 4 })));
    assert.ok(value.embedded?.decoded.message.kind === "relay-control-request");
    assert.equal(value.embedded.decoded.message.relay.command, "trip");

    const ack = dlt645.buildRelayAck("201000000012");
    const reply = decodeBytes(qgdw1376.buildForwardReply(terminalAddress, 2, ack, { seq: 7 }));
    assert.ok(qgdw1376.isReplyTo(decoded, reply));
    const answer = reply.units[0]!.value;
    assert.ok(answer.type === "forward-reply");
    assert.equal(answer.embedded?.decoded.address, "201000000012");
    const silent = decodeBytes(qgdw1376.buildForwardReply(terminalAddress, 2, new Uint8Array(0)));
    assert.deepEqual(silent.units[0]!.value, { type: "forward-reply", port: 2, frame: "", embedded: null });
  });

  test("forwarding control word and timeouts follow the standard's bit layout", () => {
    // 02 6B 82 32: port 2, 2400 bps 8E1, 2 s frame timeout, 500 ms byte timeout (file id 16185877693).
    const body = qgdw1376.buildForward(concentrator, {
      port: 2,
      frame: parseHex("68 AA AA AA AA AA AA 68 13 00 DF 16"),
    });
    assert.match(toHex(body), /00 00 01 00 02 6B 82 32 0C 00 68 AA/);
    assert.equal(
      qgdw1376.encodeSerial({ baud: 1200, parity: "odd", dataBits: 7, stopBits: 2 }),
      (2 << 5) | 0x10 | 0x08 | 0x04 | 2,
    );
    assert.deepEqual(qgdw1376.decodeSerial(0x03), { baud: 300, parity: "none", dataBits: 8, stopBits: 1 });
    const fast = decodeBytes(
      qgdw1376.buildForward(concentrator, {
        port: 1,
        frame: new Uint8Array(1),
        frameTimeoutMs: 300,
        byteTimeoutMs: 50,
      }),
    );
    assert.ok(fast.units[0]!.value.type === "forward-request");
    assert.deepEqual([fast.units[0]!.value.frameTimeoutMs, fast.units[0]!.value.byteTimeoutMs], [300, 50]);
  });

  test("AFN 0E events: pointers down, counters and ERC records up", () => {
    const request = decodeBytes(qgdw1376.buildReadEvents(concentrator, true, 0, 2));
    assert.deepEqual(request.units[0]!.value, { type: "event-request", from: 0, to: 2 });
    const data = qgdw1376.encodeEvents({ important: 2, normal: 0 }, 0, 2, [
      { erc: 14, data: parseHex("05 10 28 11 26 07 10 28 11 26") },
      { erc: 37, data: parseHex("01 00") },
    ]);
    const reply = decodeBytes(
      qgdw1376.buildResponse(terminalAddress, 0x0e, [{ pn: 0, fn: 1, data }], {
        ec: { important: 2, normal: 0 },
      }),
    );
    assert.deepEqual(reply.aux.ec, { important: 2, normal: 0 });
    assert.equal(reply.control.acd, true);
    assert.deepEqual(reply.units[0]!.value, {
      type: "events",
      importantCount: 2,
      normalCount: 0,
      from: 0,
      to: 2,
      records: [
        { erc: 14, name: "terminal power off / on", data: "05 10 28 11 26 07 10 28 11 26" },
        { erc: 37, name: "meter cover opened", data: "01 00" },
      ],
    });
  });

  test("control commands, clock set and the terminal's confirm", () => {
    const set = decodeBytes(
      qgdw1376.buildSetClock(concentrator, { year: 2026, month: 11, day: 29, hour: 8, minute: 1, second: 2 }),
    );
    assert.ok(set.units[0]!.value.type === "clock");
    assert.deepEqual(
      [set.units[0]!.value.time.value, set.units[0]!.value.time.weekday],
      ["2026-11-29 08:01:02", 0],
    );
    const close = decodeBytes(qgdw1376.buildAllowClose(concentrator, 2, { confirm: true }));
    assert.deepEqual([close.units[0]!.label, close.seq.con, close.control.raw], ["p2 F2", true, 0x4a]);
    // The master's confirm of a link test is a link status (C = 0B); of an event report, 认可 (C = 00).
    const toLogin = decodeBytes(qgdw1376.buildConfirm({ address: terminalAddress, seq: 4 }));
    assert.deepEqual([toLogin.kind, toLogin.control.raw, toLogin.seq.seq], ["confirm", 0x0b, 4]);
    const toReport = decodeBytes(qgdw1376.buildReportConfirm({ address: terminalAddress, seq: 5 }));
    assert.deepEqual(
      [toReport.kind, toReport.control.raw, toReport.control.functionName],
      ["confirm", 0x00, "confirm"],
    );
    const done = decodeBytes(qgdw1376.buildTerminalConfirm(terminalAddress, true));
    assert.deepEqual([done.kind, done.control.raw], ["confirm", 0x80]);
    const refused = decodeBytes(qgdw1376.buildTerminalConfirm(terminalAddress, false));
    assert.equal(refused.kind, "deny");
    const hb = decodeBytes(qgdw1376.buildHeartbeat(terminalAddress, { seq: 3, clock: readAt }));
    assert.ok(hb.units[0]!.value.type === "clock");
    assert.equal(hb.units[0]!.value.time.value, "2026-11-29 10:15:00");
  });

  test("frames longer than the standard allows are refused from L, before anything else is read", () => {
    const header = parseHex("68 FF FF FF FF 68");
    const error = (() => {
      try {
        qgdw1376.parseFrame(concatBytes(header, new Uint8Array(20)));
      } catch (e) {
        return e as Error & { code: string };
      }
      return null;
    })();
    assert.equal(error?.code, "bad-header", "protocol id 3 is not 1376.1");
    const login = qgdw1376.buildLogin(terminalAddress);
    assert.throws(() => qgdw1376.parseFrame(login, { maxUserLength: 11 }), { code: "bad-length" });
    assert.equal(qgdw1376.parseFrame(login, { maxUserLength: 12 }).afn, 2);
    assert.throws(
      () =>
        qgdw1376.buildFrame({
          control: 0,
          address: terminalAddress,
          afn: 0,
          seq: 0,
          body: new Uint8Array(16376),
        }),
      {
        code: "bad-argument",
      },
    );
    assert.throws(() => qgdw1376.decodeUp(qgdw1376.parseFrame(qgdw1376.buildReadClock(concentrator))), {
      code: "bad-direction",
    });
    assert.throws(() => qgdw1376.decodeDown(qgdw1376.parseFrame(login)), { code: "bad-direction" });
  });

  test("parseFrames finds a request and its answer in one log line, with junk between", () => {
    const request = qgdw1376.buildReadClock(concentrator, { seq: 9 });
    const answer = qgdw1376.buildResponse(
      terminalAddress,
      0x0c,
      [{ pn: 0, fn: 2, data: qgdw1376.encodeClock(readAt) }],
      { seq: 9 },
    );
    const frames = qgdw1376.parseFrames(
      concatBytes(parseHex("FE FE 68 00"), request, parseHex("00 16"), answer),
    );
    assert.deepEqual(
      frames.map((f) => [f.afn, f.control, f.start]),
      [
        [0x0c, 0x4b, 4],
        [0x0c, 0x88, 4 + request.length + 2],
      ],
    );
  });

  test("a login may carry the terminal's 16-byte password; without one it is the standard's empty F1", () => {
    const password = "00112233445566778899AABBCCDDEEFF";
    const login = decodeBytes(qgdw1376.buildLogin(terminalAddress, { seq: 3, password }));
    assert.equal(login.kind, "login");
    assert.deepEqual(login.units[0]?.value, { type: "login-password", hex: password });
    const plain = decodeBytes(qgdw1376.buildLogin(terminalAddress));
    assert.deepEqual(
      plain.units.map((unit) => unit.value),
      [{ type: "none" }],
    );
    assert.throws(() => qgdw1376.buildLogin(terminalAddress, { password: "1234" }), /32 hex digits/);
  });

  test("DL/T 698.45 meters have a meter-file protocol code of their own", () => {
    const entry = qgdw1376.encodeMeterEntry({
      index: 2,
      pn: 2,
      port: 31,
      protocol: qgdw1376.MeterProtocol.DLT698_45,
      address: "201000000002",
      baud: 9600,
    });
    const decoded = qgdw1376.decodeMeterEntry(entry, 0);
    assert.deepEqual(
      [decoded.protocol, decoded.protocolName, decoded.baud, decoded.port],
      [32, "DL/T 698.45", 9600, 31],
    );
  });

  test("a terminal's own event report: PRM 1 with CON, records opening with their time and point", () => {
    const cover = concatBytes(qgdw1376.encodeEventPoint(readAt, 258), Uint8Array.of(3, 0, 0));
    const ended = qgdw1376.encodeEventPoint(readAt, 7, false);
    const data = qgdw1376.encodeEvents({ important: 2, normal: 0 }, 0, 2, [
      { erc: 37, data: cover },
      { erc: 33, data: ended },
    ]);
    const report = decodeBytes(qgdw1376.buildEventReport(terminalAddress, true, data, { seq: 4 }));
    assert.deepEqual(
      [report.afn, report.control.primary, report.control.function, report.seq.con, report.units[0]?.fn],
      [0x0e, true, qgdw1376.LinkFn.USER_DATA, true, 1],
    );
    const value = report.units[0]?.value;
    assert.equal(value?.type, "events");
    if (value?.type !== "events") return;
    assert.deepEqual(
      value.records.map((record) => [record.erc, record.name]),
      [
        [37, "meter cover opened"],
        [33, "meter run status word changed"],
      ],
    );
    const first = qgdw1376.decodeEventPoint(parseHex(value.records[0]!.data));
    assert.deepEqual([first?.pn, first?.start, first?.at.value], [258, true, "2026-11-29 10:15"]);
    const second = qgdw1376.decodeEventPoint(parseHex(value.records[1]!.data));
    assert.deepEqual([second?.pn, second?.start], [7, false]);
    assert.equal(qgdw1376.decodeEventPoint(Uint8Array.of(1, 2, 3)), null);
    assert.throws(() => qgdw1376.encodeEventPoint(readAt, 0), /pn 0/);
  });
});
