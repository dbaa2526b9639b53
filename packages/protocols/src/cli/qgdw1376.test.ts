import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHex } from "../hex.ts";
import * as qgdw1376 from "../qgdw1376/index.ts";
import { runFrameCli } from "./frame-core.ts";

const run = (...argv: string[]) => runFrameCli(argv, new Date(2026, 10, 29, 8, 0, 0));
const json = (...argv: string[]) => {
  const result = run(...argv);
  assert.equal(result.exitCode, 0, result.stderr);
  return JSON.parse(result.stdout);
};
// Login of terminal 0200-1234 (file id 17443936457, JavaScript 376.1 notes).
const LOGIN = "68 32 00 32 00 68 C9 00 02 34 12 00 02 71 00 00 01 00 85 16";

describe("frame CLI, Q/GDW 1376.1", () => {
  test("decode names A1 / A2 / A3, the AFN in hex, SEQ flags and each unit as p<n> F<n>", () => {
    for (const out of [json("decode", LOGIN), json("decode", LOGIN, "--protocol", "qgdw1376")]) {
      assert.equal(out.protocol, "Q/GDW 1376.1");
      assert.deepEqual([out.A1, out.A2, out.A3], ["0200", "4660 (0x1234)", "MSA 0"]);
      assert.equal(out.AFN, "02H link interface test");
      assert.deepEqual(out.seq, { tpv: false, fir: true, fin: true, con: true, seq: 1 });
      assert.deepEqual(out.units, [{ unit: "p0 F1", name: "login" }]);
      assert.equal(out.kind, "login");
    }
  });

  test("a wrong CS is refused with a message that says CS", () => {
    const result = run("decode", "--protocol", "qgdw1376", LOGIN.replace("85 16", "84 16"));
    assert.equal(result.exitCode, 1);
    assert.equal(JSON.parse(result.stderr).error.code, "checksum");
    assert.match(result.stderr, /CS mismatch/);
  });

  test("decode shows the values of a class 1 answer and a forwarded 645 frame", () => {
    const answer = qgdw1376.buildResponse({ area: "3401", terminal: 258, master: 1, group: false }, 0x0c, [
      {
        pn: 1,
        fn: 129,
        data: qgdw1376.encodeTariffReadings({ year: 2026, month: 11, day: 29, hour: 8 }, ["12.3400"]),
      },
    ]);
    const out = json("decode", Buffer.from(answer).toString("hex"));
    assert.deepEqual(out.units[0].values[1], {
      name: "forward active energy total",
      value: "12.3400",
      unit: "kWh",
      scaled: "123400",
      scale: 4,
    });
  });

  test("encode builds the gateway's requests; the usage lists them", () => {
    const hex = run(
      "encode",
      "read",
      "--protocol",
      "qgdw1376",
      "--area",
      "3401",
      "--terminal",
      "258",
      "--pn",
      "1,2",
      "--fn",
      "129",
      "--seq",
      "4",
    ).stdout;
    const decoded = qgdw1376.decodeFrame(qgdw1376.parseFrame(parseHex(hex)));
    assert.deepEqual(
      decoded.units.map((u) => u.label),
      ["p1 F129", "p2 F129"],
    );
    const confirm = run(
      "encode",
      "login-confirm",
      "--protocol",
      "qgdw1376",
      "--area",
      "0200",
      "--terminal",
      "4660",
      "--seq",
      "1",
    );
    assert.equal(confirm.stdout, "68 32 00 32 00 68 0B 00 02 34 12 00 00 61 00 00 01 00 B5 16");
    const file = run(
      "encode",
      "write-meter-file",
      "--protocol",
      "qgdw1376",
      "--area",
      "3401",
      "--terminal",
      "258",
      "--meter",
      "1:1:2:30:201000000012",
      "--meter",
      "2:2:2:1:000017109377",
    );
    const rows = qgdw1376.decodeFrame(qgdw1376.parseFrame(parseHex(file.stdout))).units[0]!.value;
    assert.ok(rows.type === "meter-file");
    assert.deepEqual(
      rows.meters.map((m) => [m.index, m.pn, m.port, m.protocolName, m.address]),
      [
        [1, 1, 2, "DL/T 645-2007", "201000000012"],
        [2, 2, 2, "DL/T 645-1997", "000017109377"],
      ],
    );
    const trip = run(
      "encode",
      "forward-trip",
      "--protocol",
      "qgdw1376",
      "--area",
      "3401",
      "--terminal",
      "258",
      "--meter",
      "201000000012",
    );
    const forwarded = qgdw1376.decodeFrame(qgdw1376.parseFrame(parseHex(trip.stdout))).units[0]!.value;
    assert.ok(
      forwarded.type === "forward-request" &&
        forwarded.embedded?.decoded.message.kind === "relay-control-request",
    );
    assert.equal(forwarded.embedded.decoded.message.relay.validUntil, "2026-11-29 08:10:00");
    assert.match(run("--help").stdout, /write-meter-file/);
    assert.equal(run("encode", "read", "--protocol", "qgdw1376", "--area", "3401").exitCode, 1);
  });
});
