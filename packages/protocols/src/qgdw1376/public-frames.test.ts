import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import { parseHex } from "../hex.ts";
import * as qgdw1376 from "./index.ts";

/**
 * Q/GDW 1376.1 frames from public sources. The code index does not name their repositories,
 * so each is cited by its file id there (read with the index's read_file) and what the file is.
 */
const JS_NOTES = "file id 17443936457, JavaScript 376.1 notes (终端登录 / 心跳 / 复位终端 examples)";
const CPP_DCU = "file id 56526740782, C++ Qgdw::DecodeFrame (heartbeat and its answer)";
const C_LORA = "file id 30676338640, C GW3761_Frame_Comb (login, deny, clock, forwarding)";
const JAVA_UPGW = "file id 1503371332, Java TestUpGw (0C F2 request and answer)";
const JAVA_BLE = "file id 33476897740, Java BlueOperationContact (AFN 05 / 0C / 0A / 04 commands)";
const HTML_TOOL = "file id 4582974321, HTML test page (AFN 09 F1 with Tp)";
const JAVA_POOL = "file id 12326838720, Java GBProtocolBreakerPool test (login)";
const JS_VERIFY = "file id 2675557064, JavaScript verifyFrame comment (heartbeat)";
const ERLANG = "file id 21308012522, Erlang parse_frame comment (login)";
const JAVA_WALK = "file id 33260472085, Java field-by-field walkthrough (login)";

const decode = (hex: string) => {
  const decoded = qgdw1376.decodeFrame(qgdw1376.parseFrame(parseHex(hex)));
  assert.deepEqual(decoded.warnings, []);
  assert.equal(decoded.protocolId, 2);
  return decoded;
};
const units = (decoded: qgdw1376.Qgdw1376Decoded) => decoded.units.map((u) => [u.label, u.name]);
const ZERO_PW = "0".repeat(32);

describe("Q/GDW 1376.1 frames from public sources", () => {
  test(`login, its confirm and a heartbeat [${JS_NOTES}]`, () => {
    const login = decode("68 32 00 32 00 68 C9 00 02 34 12 00 02 71 00 00 01 00 85 16");
    assert.equal(login.kind, "login");
    assert.deepEqual(login.address, { area: "0200", terminal: 0x1234, master: 0, group: false });
    assert.deepEqual(login.control, {
      raw: 0xc9,
      direction: "terminal->master",
      primary: true,
      acd: false,
      function: 9,
      functionName: "link test",
    });
    assert.deepEqual(login.seq, { raw: 0x71, tpv: false, fir: true, fin: true, con: true, seq: 1 });
    assert.equal(login.afnHex, "02H");
    assert.deepEqual(units(login), [["p0 F1", "login"]]);
    assert.deepEqual(login.aux, {});

    const confirm = decode("68 32 00 32 00 68 0B 00 02 34 12 00 00 61 00 00 01 00 B5 16");
    assert.equal(confirm.kind, "confirm");
    assert.equal(confirm.control.direction, "master->terminal");
    assert.equal(confirm.control.primary, false);
    assert.equal(confirm.control.functionName, "link status");
    assert.deepEqual([confirm.seq.con, confirm.seq.seq], [false, 1]);
    assert.ok(qgdw1376.isReplyTo(confirm, confirm) === false, "a down frame answers nothing");

    const heartbeat = decode("68 32 00 32 00 68 C9 00 02 34 12 00 02 71 00 00 04 00 88 16");
    assert.equal(heartbeat.kind, "heartbeat");
    assert.deepEqual(units(heartbeat), [["p0 F3", "heartbeat"]]);
    assert.deepEqual(heartbeat.units[0]!.value, { type: "none" });
  });

  test(`our login confirm is byte for byte the published one [${JS_NOTES}]`, () => {
    const login = decode("68 32 00 32 00 68 C9 00 02 34 12 00 02 71 00 00 01 00 85 16");
    const confirm = qgdw1376.buildLoginConfirm({ address: login.address, seq: login.seq.seq });
    assert.deepEqual(confirm, parseHex("68 32 00 32 00 68 0B 00 02 34 12 00 00 61 00 00 01 00 B5 16"));
    const again = qgdw1376.buildLogin(login.address, { seq: 1 });
    assert.deepEqual(again, parseHex("68 32 00 32 00 68 C9 00 02 34 12 00 02 71 00 00 01 00 85 16"));
  });

  test(`terminal reset with PW and Tp, and the terminal's confirm with EC and Tp [${JS_NOTES}]`, () => {
    const reset = decode(
      "68 8A 00 8A 00 68 41 00 02 34 12 04 01 F0 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 28 53 13 07 05 19 16",
    );
    assert.equal(reset.afnName, "reset");
    assert.equal(reset.control.functionName, "reset");
    assert.deepEqual(reset.address, { area: "0200", terminal: 0x1234, master: 2, group: false });
    assert.deepEqual(reset.seq, { raw: 0xf0, tpv: true, fir: true, fin: true, con: true, seq: 0 });
    assert.deepEqual(units(reset), [["p0 F1", "hardware initialisation"]]);
    assert.deepEqual(reset.aux, {
      pw: ZERO_PW,
      tp: { pfc: 0, sentAt: "07 13:53:28", delayMinutes: 5 },
    });

    const answer = decode(
      "68 52 00 52 00 68 A0 00 02 34 12 04 00 E0 00 00 01 00 11 00 00 27 52 13 07 05 76 16",
    );
    assert.equal(answer.kind, "confirm");
    assert.equal(answer.control.acd, true);
    assert.deepEqual(answer.aux, {
      ec: { important: 0x11, normal: 0 },
      tp: { pfc: 0, sentAt: "07 13:52:27", delayMinutes: 5 },
    });
  });

  test(`a heartbeat answered per data unit (AFN 00 F3) [${CPP_DCU}]`, () => {
    const heartbeat = decode("68 32 00 32 00 68 C9 20 21 07 00 00 02 71 00 00 04 00 88 16");
    assert.deepEqual(heartbeat.address, { area: "2120", terminal: 7, master: 0, group: false });
    const answer = decode("68 4A 00 4A 00 68 0B 20 21 07 00 00 00 61 00 00 04 00 02 00 00 04 00 00 BE 16");
    assert.equal(answer.kind, "confirm-per-unit");
    assert.deepEqual(answer.units[0]!.value, {
      type: "unit-results",
      afn: 2,
      results: [{ pn: 0, fn: 3, ok: true }],
    });
    const ours = qgdw1376.buildUnitConfirm({ address: heartbeat.address, seq: 1 }, 2, [
      { pn: 0, fn: 3, ok: true },
    ]);
    assert.deepEqual(
      ours,
      parseHex("68 4A 00 4A 00 68 0B 20 21 07 00 00 00 61 00 00 04 00 02 00 00 04 00 00 BE 16"),
    );
  });

  test(`terminal login, deny, confirm and clock answer [${C_LORA}]`, () => {
    const login = decode("68 32 00 32 00 68 C9 00 00 00 05 00 02 60 00 00 01 00 31 16");
    assert.equal(login.kind, "login");
    assert.deepEqual([login.address.terminal, login.seq.con], [0x0500, false]);
    const deny = decode("68 32 00 32 00 68 8b 00 00 01 00 00 00 60 00 00 02 00 ee 16");
    assert.equal(deny.kind, "deny");
    assert.equal(deny.control.direction, "terminal->master");
    // This vendor's confirm carries one byte after p0 F1, which has no data: decoded, and said.
    const confirm = qgdw1376.decodeFrame(
      qgdw1376.parseFrame(parseHex("68 36 00 36 00 68 80 00 05 00 05 00 00 70 00 00 01 00 01 FC 16")),
    );
    assert.equal(confirm.kind, "confirm");
    assert.deepEqual(confirm.warnings, ["1 byte(s) after the last data unit: 01"]);
    const clock = decode("68 4A 00 4A 00 68 88 00 13 00 05 00 0C 70 00 00 02 00 51 20 23 07 10 18 E1 16");
    assert.deepEqual(clock.address, { area: "1300", terminal: 0x0500, master: 0, group: false });
    assert.deepEqual(clock.units[0]!.value, {
      type: "clock",
      time: {
        kind: "datetime",
        name: "terminal clock",
        raw: "512023071018",
        status: "ok",
        value: "2018-10-07 23:20:51",
      },
    });
  });

  test(`forwarded DL/T 645 answer (AFN 10 F1 up), L corrected to the frame's real length [${C_LORA}]`, () => {
    // The published comment has L = 3A; its CS (B0) is right for the 48 bytes of user data, so L = C2.
    const hex =
      "68 C2 00 C2 00 68 88 00 0B 00 05 00 10 60 00 00 01 00 06 21 00 68 77 93 10 17 00 00 68 81 15 34 F3 43 39 35 34 4B 43 33 33 35 3C 93 3C 47 39 35 34 4B 33 77 B5 16 B0 16";
    const reply = decode(hex);
    assert.equal(reply.afnName, "data forwarding");
    const value = reply.units[0]!.value;
    assert.ok(value.type === "forward-reply");
    assert.equal(value.port, 6);
    assert.equal(value.frame.split(" ").length, 0x21);
    assert.ok(value.embedded?.protocol === "dlt645");
    assert.equal(value.embedded.decoded.address, "000017109377");
    assert.equal(value.embedded.decoded.control.direction, "meter->master");
    const published = onlyError(() =>
      qgdw1376.parseFrame(parseHex(hex.replace(/^68 C2 00 C2 00/, "68 3A 00 3A 00"))),
    );
    assert.equal(published.code, "checksum", "with L = 3A the CS byte is read from the wrong place");
  });

  test(`clock read and answer with the weekday in the month byte [${JAVA_UPGW}]`, () => {
    const request = decode("68 32 00 32 00 68 4A 00 00 01 00 02 0C 60 00 00 02 00 BB 16");
    assert.deepEqual(request.address, { area: "0000", terminal: 1, master: 1, group: false });
    assert.deepEqual(units(request), [["p0 F2", "terminal clock"]]);
    assert.deepEqual(
      qgdw1376.buildReadClock({ area: "0000", terminal: 1 }, { linkFunction: 10 }),
      parseHex("68 32 00 32 00 68 4A 00 00 01 00 02 0C 60 00 00 02 00 BB 16"),
    );
    const answer = decode("68 4A 00 4A 00 68 88 00 00 01 00 02 0C 60 00 00 02 00 49 48 11 15 52 15 17 16");
    const value = answer.units[0]!.value;
    assert.ok(value.type === "clock");
    assert.equal(value.time.value, "2015-12-15 11:48:49");
    assert.equal(value.time.weekday, 2, "week code 2 = Tuesday");
    assert.ok(qgdw1376.isReplyTo(request, answer));
  });

  test(`remote trip and allow closing of control round 1, broadcast with PW and Tp [${JAVA_BLE}]`, () => {
    const trip = decode(
      "68 8E 00 8E 00 68 4A 00 00 FF FF 21 05 E1 01 01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 56 13 17 04 05 DD 16",
    );
    assert.deepEqual(trip.address, { area: "0000", terminal: 0xffff, master: 16, group: true });
    assert.deepEqual(units(trip), [["p1 F1", "remote trip"]]);
    assert.deepEqual(trip.units[0]!.value, {
      type: "byte",
      name: "alarm delay and power-limit time",
      value: 0,
    });
    assert.deepEqual(trip.aux, { pw: ZERO_PW, tp: { pfc: 2, sentAt: "04 17:13:56", delayMinutes: 5 } });
    const close = decode(
      "68 8A 00 8A 00 68 6A 00 00 FF FF 21 05 E0 01 01 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 23 12 17 04 05 C8 16",
    );
    assert.deepEqual([close.control.fcb, close.control.fcv], [true, false]);
    assert.deepEqual(units(close), [["p1 F2", "allow closing"]]);
    assert.deepEqual(close.aux.tp, { pfc: 1, sentAt: "04 17:12:23", delayMinutes: 5 });
    const tp = { pfc: 2, sentAt: { day: 4, hour: 17, minute: 13, second: 56 }, delayMinutes: 5 };
    const target = { area: "0000", terminal: 0xffff, group: true };
    assert.deepEqual(
      qgdw1376.buildRemoteTrip(target, 1, 0, { master: 16, seq: 1, tp }),
      parseHex(
        "68 8E 00 8E 00 68 4A 00 00 FF FF 21 05 E1 01 01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 56 13 17 04 05 DD 16",
      ),
    );
  });

  test(`power hold on and off, urge-fee alarm off [${JAVA_BLE}]`, () => {
    const hold = decode(
      "68 8E 00 8E 00 68 4A 00 00 FF FF 21 05 EB 00 00 01 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 0C 25 36 17 04 05 E4 16",
    );
    assert.deepEqual(units(hold), [["p0 F25", "terminal power hold on"]]);
    assert.equal(hold.seq.seq, 11);
    const holdOff = decode(
      "68 8A 00 8A 00 68 6A 00 00 FF FF 21 05 EC 00 00 01 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 0D 40 37 17 04 05 23 16",
    );
    assert.deepEqual(units(holdOff), [["p0 F33", "terminal power hold off"]]);
    const alarmOff = decode(
      "68 8A 00 8A 00 68 6A 00 00 FF FF 21 05 E2 00 00 02 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 03 37 40 17 11 05 1D 16",
    );
    assert.deepEqual(units(alarmOff), [["p0 F34", "urge-fee alarm off"]]);
    assert.deepEqual(alarmOff.aux.tp, { pfc: 3, sentAt: "11 17:40:37", delayMinutes: 5 });
  });

  test(`class 1 reads of p1 with a time tag, a parameter query and a rate write [${JAVA_BLE}]`, () => {
    const energy = decode("68 4A 00 4A 00 68 4B 00 00 FF FF 21 0C E1 01 01 01 04 02 16 59 14 22 05 0A 16");
    assert.equal(energy.control.functionName, "request class 2 data");
    assert.deepEqual(units(energy), [
      ["p1 F33", "current forward active / reactive energy, quadrant I / IV reactive energy"],
    ]);
    assert.deepEqual(energy.aux, { tp: { pfc: 2, sentAt: "22 14:59:16", delayMinutes: 5 } });
    assert.deepEqual(
      qgdw1376.buildReadClass1({ area: "0000", terminal: 0xffff, group: true }, [1], [33], {
        master: 16,
        seq: 1,
        tp: { pfc: 2, sentAt: { day: 22, hour: 14, minute: 59, second: 16 }, delayMinutes: 5 },
      }),
      parseHex("68 4A 00 4A 00 68 4B 00 00 FF FF 21 0C E1 01 01 01 04 02 16 59 14 22 05 0A 16"),
    );
    assert.deepEqual(
      units(decode("68 4A 00 4A 00 68 4B 00 00 FF FF 21 0C E3 01 01 01 03 04 26 21 15 22 05 E6 16")),
      [["p1 F25", "current power, power factor, voltage, current"]],
    );
    assert.deepEqual(
      units(decode("68 4A 00 4A 00 68 4B 00 00 FF FF 21 0C E3 01 01 40 02 04 35 30 17 04 05 26 16")),
      [["p1 F23", "request class 1 data (real time) F23"]],
    );
    const query = decode("68 4A 00 4A 00 68 6B 00 00 FF FF 21 0A E0 01 01 01 03 01 24 58 15 22 05 33 16");
    assert.deepEqual(units(query), [["p1 F25", "measurement point basic parameters"]]);
    const rates = decode(
      "68 CE 00 CE 00 68 6A 00 00 FF FF 21 04 E0 00 00 20 02 04 34 12 00 00 78 09 00 00 82 06 00 00 55 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 34 40 17 22 05 EE 16",
    );
    assert.deepEqual(rates.units[0]!.value, {
      type: "raw",
      hex: "04 34 12 00 00 78 09 00 00 82 06 00 00 55 04 00 00",
    });
    assert.equal(rates.aux.pw, ZERO_PW);
  });

  test(`terminal version request with an all-zero time tag [${HTML_TOOL}]`, () => {
    const request = decode("68 4A 00 4A 00 68 4B 22 22 65 00 64 09 E0 00 00 01 00 21 00 00 00 00 00 63 16");
    assert.deepEqual(request.address, { area: "2222", terminal: 101, master: 50, group: false });
    assert.deepEqual(units(request), [["p0 F1", "terminal version information"]]);
    assert.deepEqual(request.aux.tp, { pfc: 0x21, sentAt: "00 00:00:00", delayMinutes: 0 });
  });

  for (const [hex, source, kind, area, terminal, seq] of [
    ["68 32 00 32 00 68 C9 21 05 AA AA 00 02 79 00 00 01 00 BF 16", JAVA_POOL, "login", "0521", 0xaaaa, 9],
    [
      "68 32 00 32 00 68 C9 03 41 A9 F9 00 02 7F 00 00 04 00 34 16",
      JS_VERIFY,
      "heartbeat",
      "4103",
      0xf9a9,
      15,
    ],
    ["68 32 00 32 00 68 C9 14 03 32 63 00 02 73 00 00 01 00 EB 16", ERLANG, "login", "0314", 0x6332, 3],
    ["68 32 00 32 00 68 C9 03 44 04 00 00 02 71 00 00 01 00 88 16", JAVA_WALK, "login", "4403", 4, 1],
  ] as const) {
    test(`${kind} of terminal ${area}-${terminal} [${source}]`, () => {
      const decoded = decode(hex);
      assert.equal(decoded.kind, kind);
      assert.deepEqual(decoded.address, { area, terminal, master: 0, group: false });
      assert.equal(decoded.seq.seq, seq);
      const rebuilt =
        kind === "login"
          ? qgdw1376.buildLogin(decoded.address, { seq })
          : qgdw1376.buildHeartbeat(decoded.address, { seq });
      assert.deepEqual(rebuilt, parseHex(hex));
    });
  }

  test("a wrong CS is refused with a ProtocolError that names CS", () => {
    const error = onlyError(() =>
      qgdw1376.parseFrame(parseHex("68 32 00 32 00 68 C9 00 02 34 12 00 02 71 00 00 01 00 86 16")),
    );
    assert.equal(error.code, "checksum");
    assert.match(error.message, /\bCS\b/);
    assert.equal(error.offset, 0);
  });
});

function onlyError(run: () => unknown): ProtocolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  assert.fail("expected a ProtocolError");
}
