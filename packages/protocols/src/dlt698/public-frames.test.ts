import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import * as dlt698 from "./index.ts";

/**
 * DL/T 698.45 frames from public sources, cited by code-index file id (the index does not name
 * their repositories) and what they are. Each is decoded field by field; where Meterline's
 * builders make the same request, the bytes must match exactly.
 */
const decode = (hex: string) => {
  const decoded = dlt698.decodeFrame(dlt698.parseFrame(parseHex(hex)));
  assert.deepEqual(decoded.warnings, []);
  assert.equal(decoded.apduError, null);
  return decoded;
};
const ZERO_SA = { type: "single", logical: 0, address: "000000000000" } as const;

describe("DL/T 698.45 frames from public sources", () => {
  // file id 70374867785: C++ dlt698 library guide "设备信息读取", request for 4001/2/0 (communication address).
  test("GET-Request-Normal 40010200 to SA 000000000000, rebuilt byte for byte", () => {
    const hex = "68 17 00 43 05 00 00 00 00 00 00 00 72 79 05 01 00 40 01 02 00 00 ED 03 16";
    const d = decode(hex);
    assert.deepEqual(d.server, ZERO_SA);
    assert.equal(d.client, 0);
    assert.deepEqual(
      [
        d.control.raw,
        d.control.direction,
        d.control.initiator,
        d.control.functionName,
        d.control.split,
        d.control.scrambled,
      ],
      [0x43, "client->server", "client", "user-data", false, false],
    );
    assert.equal(d.service, "GET-Request-Normal");
    assert.deepEqual(d.piid, { raw: 0, priority: "normal", accessRequested: false, sequence: 0 });
    assert.deepEqual(d.apdu, { service: "get-request-normal", oad: "40010200", piid: 0, timeTag: null });
    assert.deepEqual(d.attributes, [
      { oad: "40010200", name: "communication address", dar: null, values: [] },
    ]);
    assert.equal(toHex(dlt698.buildGet("000000000000", [dlt698.OAD.ADDRESS])), hex);
  });

  // file id 70374867785: the answer, octet-string 12 34 56 78 90 12 with FollowReport and TimeTag absent.
  test("GET-Response-Normal 40010200: octet-string address", () => {
    const d = decode(
      "68 21 00 C3 05 00 00 00 00 00 00 00 1D DB 85 01 00 40 01 02 00 01 09 06 12 34 56 78 90 12 00 00 DB 07 16",
    );
    assert.deepEqual(
      [d.control.direction, d.control.initiator, d.service],
      ["server->client", "client", "GET-Response-Normal"],
    );
    assert.deepEqual(d.attributes, [
      {
        oad: "40010200",
        name: "communication address",
        dar: null,
        values: [{ name: "communication address", type: "octet-string", value: "123456789012" }],
      },
    ]);
    assert.ok(d.apdu?.service === "get-response-normal");
    assert.deepEqual([d.apdu.followReport, d.apdu.timeTag], [null, null]);
  });

  // file id 70374867785: rated voltage 4104/2/0 as a visible-string "220V".
  test("GET-Response-Normal 41040200: visible-string", () => {
    const d = decode(
      "68 1F 00 C3 05 00 00 00 00 00 00 00 0F 01 85 01 00 41 04 02 00 01 0A 04 32 32 30 56 00 00 F7 38 16",
    );
    assert.ok(d.apdu?.service === "get-response-normal");
    assert.deepEqual(d.apdu.result, {
      oad: "41040200",
      result: { data: { type: "visible-string", value: "220V" } },
    });
  });

  // file id 70159452477: C++ dlt698 library guide "电能读取", forward active energy total 0010/2/1 = 123456 → 1234.56 kWh.
  test("GET-Response-Normal 00100201: energy scaled by -2 into kWh", () => {
    const d = decode(
      "68 1E 00 C3 05 00 00 00 00 00 00 00 9E 54 85 01 00 00 10 02 01 01 06 00 01 E2 40 00 00 5A D4 16",
    );
    assert.deepEqual(d.attributes[0]?.values, [
      {
        name: "forward active energy, total",
        type: "double-long-unsigned",
        value: "1234.56",
        unit: "kWh",
        scaled: 123456n,
        scale: 2,
      },
    ]);
    assert.equal(
      toHex(dlt698.buildGet("000000000000", [dlt698.OAD.FORWARD_ACTIVE_ENERGY_TOTAL])),
      "68 17 00 43 05 00 00 00 00 00 00 00 72 79 05 01 00 00 10 02 01 00 0D 04 16",
    );
  });

  // file id 70159452477: the whole array 0010/2/0, total and four tariffs.
  test("GET-Response-Normal 00100200: total and four tariffs", () => {
    const d = decode(
      "68 34 00 C3 05 00 00 00 00 00 00 00 9C A1 85 01 00 00 10 02 00 01 01 05 06 00 01 E2 40 06 00 00 27 10 06 00 00 4E 20 06 00 00 75 30 06 00 00 F7 E0 00 00 CC B3 16",
    );
    assert.deepEqual(
      d.attributes[0]?.values.map((v) => [v.name, v.value, v.unit]),
      [
        ["forward active energy, total", "1234.56", "kWh"],
        ["forward active energy, tariff 1", "100.00", "kWh"],
        ["forward active energy, tariff 2", "200.00", "kWh"],
        ["forward active energy, tariff 3", "300.00", "kWh"],
        ["forward active energy, tariff 4", "634.56", "kWh"],
      ],
    );
  });

  // file id 70159452477: high-precision energy 0010/4/1, long64-unsigned 12345678 → 1234.5678 kWh.
  test("GET-Response-Normal 00100401: long64-unsigned scaled by -4", () => {
    const d = decode(
      "68 22 00 C3 05 00 00 00 00 00 00 00 AE 25 85 01 00 00 10 04 01 01 15 00 00 00 00 00 BC 61 4E 00 00 62 BB 16",
    );
    assert.deepEqual(d.attributes[0]?.values, [
      {
        name: "forward active energy (high precision), total",
        type: "long64-unsigned",
        value: "1234.5678",
        unit: "kWh",
        scaled: 12345678n,
        scale: 4,
      },
    ]);
  });

  // file id 70159452477: the same GET 200F0200 to SA 123456789012 (wire order 12 90 78 56 34 12), HCS recomputed.
  test("server address digits travel least significant byte first", () => {
    const hex = "68 17 00 43 05 12 90 78 56 34 12 00 A3 2E 05 01 00 20 0F 02 00 00 1C 0C 16";
    assert.deepEqual(decode(hex).server, { type: "single", logical: 0, address: "123456789012" });
    assert.equal(toHex(dlt698.buildGet("123456789012", [dlt698.OAD.FREQUENCY])), hex);
  });

  // file id 70448099360: C++ dlt698 library guide "TCP 手动报文调试": frequency 200F/2/0 = 5000 → 50.00 Hz.
  test("GET-Response-Normal 200F0200: long-unsigned frequency", () => {
    const d = decode(
      "68 1C 00 C3 05 00 00 00 00 00 00 00 BC FF 85 01 00 20 0F 02 00 01 12 13 88 00 00 30 D7 16",
    );
    assert.deepEqual(d.attributes[0]?.values, [
      { name: "grid frequency", type: "long-unsigned", value: "50.00", unit: "Hz", scaled: 5000n, scale: 2 },
    ]);
  });

  // file id 70448099360: a LINK login the server sends, heartbeat 5 s, request time 2026-10-07 05:58:10.263.
  test("LINK-Request login", () => {
    const d = decode(
      "68 1E 00 81 05 00 00 00 00 00 00 00 07 29 01 00 00 00 05 07 EA 0A 07 03 05 3A 0A 01 07 19 3B 16",
    );
    assert.deepEqual(
      [d.control.direction, d.control.initiator, d.control.functionName, d.service],
      ["server->client", "server", "link-management", "LINK-Request"],
    );
    assert.deepEqual(d.apdu, {
      service: "link-request",
      piid: 0,
      requestType: "login",
      heartbeatSeconds: 5,
      time: { year: 2026, month: 10, day: 7, weekday: 3, hour: 5, minute: 58, second: 10, milliseconds: 263 },
    });
  });

  // file id 49116717447: Go package zptl comments: a terminal's login (SA 000000000001, heartbeat 300 s),
  // the master's confirmation and a heartbeat. The confirmation is rebuilt byte for byte.
  test("LINK login, the master's LINK-Response and a heartbeat", () => {
    const login = decode(
      "68 1E 00 81 05 01 00 00 00 00 00 00 D2 B6 01 00 00 01 2C 07 E6 02 17 03 08 06 38 03 22 1C BC 16",
    );
    assert.equal(login.server.address, "000000000001");
    assert.ok(login.apdu?.service === "link-request");
    assert.deepEqual([login.apdu.requestType, login.apdu.heartbeatSeconds], ["login", 300]);
    const answerHex =
      "68 30 00 01 05 01 00 00 00 00 00 00 52 D9 81 00 00 07 E6 02 17 03 08 05 02 02 F9 07 E6 02 17 03 08 06 09 00 32 07 E6 02 17 03 08 06 09 00 32 F0 E7 16";
    const answer = decode(answerHex);
    assert.deepEqual(
      [answer.control.direction, answer.control.initiator, answer.service],
      ["client->server", "server", "LINK-Response"],
    );
    assert.ok(answer.apdu?.service === "link-response");
    assert.deepEqual([answer.apdu.result, answer.apdu.clockTrusted], ["success", false]);
    assert.equal(dlt698.dateTimeText(answer.apdu.requestTime), "2022-02-23 08:05:02.761");
    assert.equal(dlt698.dateTimeText(answer.apdu.receivedTime), "2022-02-23 08:06:09.050");
    const received = answer.apdu.receivedTime;
    const rebuilt = dlt698.buildLinkResponse("000000000001", {
      request: { ...login.apdu, time: answer.apdu.requestTime },
      receivedAt: received,
      clockTrusted: false,
    });
    assert.equal(toHex(rebuilt), answerHex);
    const heartbeat = decode(
      "68 1E 00 81 05 01 00 00 00 00 00 00 D2 B6 01 00 01 01 2C 07 E6 02 17 03 00 04 33 00 68 77 34 16",
    );
    assert.ok(heartbeat.apdu?.service === "link-request");
    assert.deepEqual([heartbeat.apdu.requestType, heartbeat.apdu.heartbeatSeconds], ["heartbeat", 300]);
  });

  // file id 16853488017: Go test TestLinkHeartBeat, a heartbeat with PIID 0x10.
  test("LINK heartbeat with PIID 0x10", () => {
    const d = decode(
      "68 1e 00 81 05 01 00 00 00 00 00 00 d2 b6 01 10 01 01 2c 07 e0 09 0c 01 00 00 1f 02 ab 9d 39 16",
    );
    assert.deepEqual(d.piid, { raw: 0x10, priority: "normal", accessRequested: false, sequence: 16 });
    assert.ok(d.apdu?.service === "link-request");
    assert.equal(d.apdu.requestType, "heartbeat");
    assert.equal(dlt698.dateTimeText(d.apdu.time), "2016-09-12 00:00:31.683");
  });

  // file id 21789705280: a Python (PyQt) meter test tool's ACTION 8000 method 129 (trip) to a group address,
  // CA 0x10, PIID 0x3B, relay F2050202, alarm 1 min, permanent, auto close, with a time tag.
  test("ACTION-Request-Normal 80008100 trip with a time tag, rebuilt byte for byte", () => {
    const hex =
      "68 31 00 43 85 01 00 00 00 00 00 10 39 2A 07 01 3B 80 00 81 00 01 01 02 04 51 F2 05 02 02 11 01 12 00 00 03 01 01 07 E2 09 0B 0A 13 15 01 00 C8 F8 E2 16";
    const d = decode(hex);
    assert.deepEqual(d.server, { type: "group", logical: 0, address: "000000000001" });
    assert.equal(d.client, 0x10);
    assert.equal(d.service, "ACTION-Request-Normal");
    assert.ok(d.apdu?.service === "action-request-normal");
    assert.equal(d.apdu.omd, "80008100");
    assert.equal(d.attributes[0]?.name, "remote control: trip");
    const timeTag = {
      sent: { year: 2018, month: 9, day: 11, hour: 10, minute: 19, second: 21 },
      validFor: { unit: 1, interval: 200 },
    };
    assert.deepEqual(d.apdu.timeTag, timeTag);
    assert.deepEqual(
      d.apdu.data,
      dlt698.tripData({ relay: "F2050202", alarmDelayMinutes: 1, durationMinutes: 0, autoClose: true }),
    );
    const rebuilt = dlt698.buildTrip(
      { type: "group", logical: 0, address: "000000000001" },
      { relay: "F2050202", alarmDelayMinutes: 1, durationMinutes: 0, autoClose: true },
      { client: 0x10, piid: 0x3b, timeTag },
    );
    assert.equal(toHex(rebuilt), hex);
  });

  // The same public frames with one byte changed: the header check and the frame check are named.
  // file id 55739052642: Qt "面向对象的用电信息数据交换协议" parser helper (frameoophelper.h), example
  // frame: GET-Request-Record of the last daily freeze 5004/2 by selector 9 (n = 1), columns freeze
  // time 2021/2, forward and reverse active energy 0010/2 and 0020/2; client address 02, PIID 2.
  test("GET-Request-Record 50040200, selector 9, three columns, rebuilt byte for byte", () => {
    const hex =
      "68 29 00 43 05 43 01 21 07 15 20 02 DE 48 05 03 02 50 04 02 00 09 01 03 00 20 21 02 00 00 00 10 02 00 00 00 20 02 00 00 5C 81 16";
    const d = decode(hex);
    assert.deepEqual(d.server, { type: "single", logical: 0, address: "201507210143" });
    assert.equal(d.client, 2);
    assert.equal(d.service, "GET-Request-Record");
    const record = dlt698.lastRecord(dlt698.OAD.DAILY_FROZEN, 1, [
      dlt698.OAD.FREEZE_TIME,
      dlt698.OAD.FORWARD_ACTIVE_ENERGY,
      dlt698.OAD.REVERSE_ACTIVE_ENERGY,
    ]);
    assert.deepEqual(d.apdu, { service: "get-request-record", record, piid: 2, timeTag: null });
    assert.equal(toHex(dlt698.buildGetRecord("201507210143", record, { piid: 2, client: 2 })), hex);
  });

  test("a wrong HCS or FCS is refused with a ProtocolError naming it", () => {
    const good = parseHex("68 17 00 43 05 00 00 00 00 00 00 00 72 79 05 01 00 40 01 02 00 00 ED 03 16");
    const badHcs = good.slice();
    badHcs[12] = 0x73;
    assert.throws(
      () => dlt698.parseFrame(badHcs),
      (e) => e instanceof ProtocolError && e.code === "checksum" && /HCS/.test(e.message),
    );
    const badFcs = good.slice();
    badFcs[17] = 0x41; // OAD 4001 → 4101: the header still checks, the frame does not
    assert.throws(
      () => dlt698.parseFrame(badFcs),
      (e) => e instanceof ProtocolError && e.code === "checksum" && /FCS/.test(e.message),
    );
  });
});
