import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as dlt698 from "../dlt698/index.ts";
import { parseHex, toHex } from "../hex.ts";
import { runFrameCli } from "./frame-core.ts";

const run = (...argv: string[]) => runFrameCli(argv, new Date(2024, 4, 1, 8, 0, 0));
const json = (...argv: string[]) => {
  const result = run(...argv);
  assert.equal(result.exitCode, 0, result.stderr);
  return JSON.parse(result.stdout);
};

describe("frame CLI: DL/T 698.45", () => {
  // file id 70159452477 (C++ dlt698 library guide "电能读取"): the four-tariff energy answer.
  test("decode names the service, PIID, each OAD, each value with type and unit, and the address digits", () => {
    const out = json(
      "decode",
      "--protocol",
      "dlt698",
      "68 34 00 C3 05 00 00 00 00 00 00 00 9C A1 85 01 00 00 10 02 00 01 01 05 06 00 01 E2 40 06 00 00 27 10 06 00 00 4E 20 06 00 00 75 30 06 00 00 F7 E0 00 00 CC B3 16",
    );
    assert.equal(out.protocol, "DL/T 698.45");
    assert.equal(out.service, "GET-Response-Normal");
    assert.deepEqual(out.server, { type: "single", logical: 0, address: "000000000000" });
    assert.equal(out.piid.sequence, 0);
    assert.equal(out.attributes[0].oad, "00100200");
    assert.equal(out.attributes[0].name, "forward active energy");
    assert.deepEqual(out.attributes[0].values[4], {
      name: "forward active energy, tariff 4",
      type: "double-long-unsigned",
      value: "634.56",
      unit: "kWh",
      scaled: "63456",
      scale: 2,
    });
  });

  test("decode a wallet read, a SET response with its DAR and two frames in one paste", () => {
    const wallet = dlt698.buildGetResponse(
      "202600000042",
      [
        {
          oad: "202C0200",
          result: {
            data: {
              type: "structure",
              items: [
                { type: "double-long-unsigned", value: 5025 },
                { type: "double-long-unsigned", value: 3 },
              ],
            },
          },
        },
      ],
      { piid: 9 },
    );
    const refused = dlt698.buildSetResponse("202600000042", "40180200", 3, { piid: 10 });
    const out = json("decode", "--protocol", "dlt698", `FE FE ${toHex(wallet)} ${toHex(refused)}`);
    assert.equal(out.length, 2);
    assert.equal(out[0].server.address, "202600000042");
    assert.deepEqual(
      out[0].attributes[0].values.map((v: { name: string; value: string; unit: string }) => [
        v.name,
        v.value,
        v.unit,
      ]),
      [
        ["current wallet file, remaining amount", "50.25", "yuan"],
        ["current wallet file, purchase count", "3", "count"],
      ],
    );
    assert.equal(out[1].service, "SET-Response-Normal");
    assert.deepEqual(out[1].attributes[0].dar, { code: 3, name: "read/write denied" });
  });

  test("a bad HCS or FCS is refused with a message saying which", () => {
    const good = parseHex("68 17 00 43 05 00 00 00 00 00 00 00 72 79 05 01 00 40 01 02 00 00 ED 03 16");
    const hcs = good.slice();
    hcs[13] = 0x78;
    const fcs = good.slice();
    fcs[23] = 0x04;
    for (const [bytes, which] of [
      [hcs, /HCS/],
      [fcs, /FCS/],
    ] as const) {
      const result = run("decode", "--protocol", "dlt698", toHex(bytes));
      assert.equal(result.exitCode, 1);
      assert.match(JSON.parse(result.stderr).error.message, which);
    }
  });

  test("encode builds what the gateway sends", () => {
    const get = run(
      "encode",
      "--protocol",
      "dlt698",
      "get",
      "--address",
      "000000000000",
      "--oad",
      "40010200",
    );
    assert.equal(get.stdout, "68 17 00 43 05 00 00 00 00 00 00 00 72 79 05 01 00 40 01 02 00 00 ED 03 16");
    const list = dlt698.decodeFrame(
      dlt698.parseFrame(
        parseHex(
          run(
            "encode",
            "--protocol",
            "dlt698",
            "get",
            "--address",
            "1",
            "--address",
            "202600000042",
            "--oad",
            "00100200",
            "--oad",
            "202c0200",
            "--piid",
            "7",
          ).stdout,
        ),
      ),
    );
    assert.deepEqual(
      [list.service, list.piid?.sequence, list.attributes.map((a) => a.oad)],
      ["GET-Request-NormalList", 7, ["00100200", "202C0200"]],
    );
    const trip = run(
      "encode",
      "--protocol",
      "dlt698",
      "trip",
      "--address",
      "202600000042",
      "--minutes",
      "30",
      "--auto-close",
    );
    assert.equal(
      trip.stdout,
      toHex(dlt698.buildTrip("202600000042", { durationMinutes: 30, autoClose: true })),
    );
    const close = run("encode", "--protocol", "dlt698", "close", "--address", "202600000042", "--direct");
    assert.equal(close.stdout, toHex(dlt698.buildClose("202600000042", "direct")));
    const answer = run(
      "encode",
      "--protocol",
      "dlt698",
      "link-response",
      "--request",
      "68 1E 00 81 05 01 00 00 00 00 00 00 D2 B6 01 00 00 01 2C 07 E6 02 17 03 08 06 38 03 22 1C BC 16",
    );
    const decoded = dlt698.decodeFromClient(dlt698.parseFrame(parseHex(answer.stdout)));
    assert.ok(decoded.apdu?.service === "link-response");
    assert.deepEqual([decoded.apdu.result, decoded.apdu.clockTrusted], ["success", true]);
    assert.equal(dlt698.dateTimeText(decoded.apdu.receivedTime), "2024-05-01 08:00:00");
    assert.equal(dlt698.dateTimeText(decoded.apdu.requestTime), "2022-02-23 08:06:56.802");
    assert.equal(run("encode", "--protocol", "dlt698", "get", "--address", "01").exitCode, 1);
    assert.match(run("--help").stdout, /--protocol dlt698/);
  });
});
