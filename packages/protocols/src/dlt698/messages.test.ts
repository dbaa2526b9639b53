import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import * as dlt698 from "./index.ts";

const METER = "202600000042";
const roundTrip = (wire: Uint8Array) => dlt698.decodeFrame(dlt698.parseFrame(wire));
const u32 = (value: number): dlt698.Data => ({ type: "double-long-unsigned", value });
const values = (view: dlt698.AttributeView | undefined) =>
  view?.values.map((v) => [v.name, v.value, v.unit ?? null]);

describe("DL/T 698.45 builders, catalogue and decoded views", () => {
  test("voltages, currents, powers and power factor are named by phase and scaled", () => {
    const d = roundTrip(
      dlt698.buildGetResponse(METER, [
        {
          oad: "20000200",
          result: {
            data: {
              type: "array",
              items: [2201, 2199, 2300].map((value) => ({ type: "long-unsigned", value })),
            },
          },
        },
        {
          oad: "20010200",
          result: {
            data: { type: "array", items: [5123, -42].map((value) => ({ type: "double-long", value })) },
          },
        },
        {
          oad: "20040200",
          result: {
            data: { type: "array", items: [12345, 4115].map((value) => ({ type: "double-long", value })) },
          },
        },
        { oad: "200A0201", result: { data: { type: "long", value: 987 } } },
      ]),
    );
    assert.equal(d.service, "GET-Response-NormalList");
    assert.deepEqual(values(d.attributes[0]), [
      ["voltage, phase A", "220.1", "V"],
      ["voltage, phase B", "219.9", "V"],
      ["voltage, phase C", "230.0", "V"],
    ]);
    assert.deepEqual(values(d.attributes[1]), [
      ["current, phase A", "5.123", "A"],
      ["current, phase B", "-0.042", "A"],
    ]);
    assert.deepEqual(values(d.attributes[2]), [
      ["active power, total", "1234.5", "W"],
      ["active power, phase A", "411.5", "W"],
    ]);
    assert.deepEqual(values(d.attributes[3]), [["power factor, total", "0.987", ""]]);
  });

  test("demand carries its time; prices and amount limits are money; relay state and clock read as they are", () => {
    const d = roundTrip(
      dlt698.buildGetResponse(METER, [
        {
          oad: "10100200",
          result: {
            data: {
              type: "array",
              items: [
                {
                  type: "structure",
                  items: [
                    u32(15234),
                    {
                      type: "date-time-s",
                      value: { year: 2026, month: 11, day: 2, hour: 9, minute: 15, second: 0 },
                    },
                  ],
                },
              ],
            },
          },
        },
        { oad: "40180200", result: { data: { type: "array", items: [u32(5283), u32(4883)] } } },
        { oad: "401E0200", result: { data: { type: "structure", items: [u32(2000), u32(500)] } } },
        { oad: "202D0200", result: { data: u32(150) } },
        { oad: "80000500", result: { data: { type: "bit-string", bits: "10000000" } } },
        {
          oad: "40000200",
          result: {
            data: {
              type: "date-time-s",
              value: { year: 2026, month: 11, day: 29, hour: 11, minute: 30, second: 5 },
            },
          },
        },
        { oad: "99990200", result: { data: { type: "long", value: 7 } } },
      ]),
    );
    assert.deepEqual(values(d.attributes[0]), [
      ["forward active max demand, total, demand", "1.5234", "kW"],
      ["forward active max demand, total, time", "2026-11-02 09:15:00", null],
    ]);
    assert.deepEqual(values(d.attributes[1]), [
      ["current tariff prices, price 1", "0.5283", "yuan/kWh"],
      ["current tariff prices, price 2", "0.4883", "yuan/kWh"],
    ]);
    assert.deepEqual(values(d.attributes[2]), [
      ["amount limits, alarm amount 1", "20.00", "yuan"],
      ["amount limits, alarm amount 2", "5.00", "yuan"],
    ]);
    assert.deepEqual(values(d.attributes[3]), [["current overdraft amount", "1.50", "yuan"]]);
    assert.deepEqual(values(d.attributes[4]), [["relay command state", "10000000", null]]);
    assert.deepEqual(values(d.attributes[5]), [["clock", "2026-11-29 11:30:05", null]]);
    assert.deepEqual([d.attributes[6]?.name, values(d.attributes[6])], [null, [["99990200", "7", null]]]);
  });

  test("catalogue names: OADs with attribute and element, OMDs, DARs", () => {
    assert.equal(dlt698.oadName("00130203"), "forward active energy phase C, tariff 2");
    assert.equal(dlt698.oadName("00300200"), "combined reactive energy 1");
    assert.equal(dlt698.oadName("202C0201"), "current wallet file, remaining amount");
    assert.equal(dlt698.oadName("20010400"), "neutral current");
    assert.equal(dlt698.oadName("40010900"), "communication address, attribute 9");
    assert.deepEqual(dlt698.splitOad("00102302"), { oi: 0x0010, attribute: 3, feature: 1, index: 2 });
    assert.equal(dlt698.omdName(dlt698.OMD.CLOSE), "remote control: close");
    assert.equal(dlt698.omdName("80017F00"), "power hold: power hold on");
    assert.equal(dlt698.omdName("80000100"), "remote control: method 1");
    assert.equal(dlt698.darName(25), "recharge count error");
    assert.equal(dlt698.darName(99), "DAR 99");
    assert.equal(dlt698.attributeSpec("00900201")?.unit, "kVAh");
  });

  test("GET-Record: the last frozen record by selector 9, answered with rows named by column", () => {
    const record: dlt698.RecordRequest = {
      oad: "50040200",
      rsd: { selector: 9, last: 1 },
      columns: [{ oad: "20210200" }, { oad: "00100200" }],
    };
    const request = roundTrip(dlt698.buildGetRecord(METER, record, { piid: 2 }));
    assert.ok(request.apdu?.service === "get-request-record");
    assert.deepEqual(request.apdu.record, record);
    const answer = roundTrip(
      dlt698.buildGetRecordResponse(
        METER,
        {
          ...record,
          result: {
            rows: [
              [
                {
                  type: "date-time-s",
                  value: { year: 2026, month: 11, day: 29, hour: 0, minute: 0, second: 0 },
                },
                { type: "array", items: [u32(100), u32(60)] },
              ],
            ],
          },
        },
        { piid: 2 },
      ),
    );
    assert.equal(answer.service, "GET-Response-Record");
    assert.deepEqual(values(answer.attributes[0]), [
      ["row 1: data freeze time", "2026-11-29 00:00:00", null],
      ["row 1: forward active energy, total", "1.00", "kWh"],
      ["row 1: forward active energy, tariff 1", "0.60", "kWh"],
    ]);
  });

  test("REPORT-Notification is answered by a REPORT-Response naming the same OADs and PIID", () => {
    const notification = roundTrip(
      dlt698.buildReportNotification(METER, [{ oad: "30110200", result: { data: { type: "null" } } }], {
        piid: 0x45,
      }),
    );
    assert.deepEqual(
      [notification.control.raw, notification.control.initiator, notification.service],
      [0x83, "server", "REPORT-Notification-List"],
    );
    assert.equal(notification.piid?.accessRequested, true);
    assert.ok(notification.apdu?.service === "report-notification-list");
    const response = roundTrip(dlt698.buildReportResponse(METER, notification.apdu));
    assert.deepEqual([response.control.raw, response.service], [0x03, "REPORT-Response-List"]);
    assert.ok(response.apdu?.service === "report-response-list");
    assert.deepEqual([response.apdu.oads, response.apdu.piid], [["30110200"], 0x05]);
    assert.equal(response.attributes[0]?.name, "power-down event records");
  });

  test("ACTION and SET answers carry their DAR; ERROR-Response; PIID priority", () => {
    const action = roundTrip(dlt698.buildActionResponse(METER, dlt698.OMD.TRIP, 0, null, { piid: 0x83 }));
    assert.deepEqual(action.attributes, [
      { oad: "80008100", name: "remote control: trip", dar: { code: 0, name: "success" }, values: [] },
    ]);
    assert.deepEqual(action.piid, { raw: 0x83, priority: "high", accessRequested: false, sequence: 3 });
    const close = roundTrip(dlt698.buildClose(METER, "direct"));
    assert.ok(close.apdu?.service === "action-request-normal");
    assert.deepEqual(close.apdu.data, dlt698.closeData("direct"));
    const error = roundTrip(dlt698.buildErrorResponse(METER, 2, { piid: 1 }));
    assert.deepEqual(error.apdu, { service: "error-response", piid: 1, errorType: 2 });
    const next = roundTrip(dlt698.buildGetNext(METER, 3));
    assert.ok(next.apdu?.service === "get-request-next" && next.apdu.lastBlock === 3);
    const set = roundTrip(
      dlt698.buildSet(METER, "401E0200", { type: "structure", items: [u32(2000), u32(500)] }),
    );
    assert.deepEqual(values(set.attributes[0]), [
      ["amount limits, alarm amount 1", "20.00", "yuan"],
      ["amount limits, alarm amount 2", "5.00", "yuan"],
    ]);
  });

  test("direction checks, bad APDUs and builder arguments", () => {
    const request = dlt698.parseFrame(dlt698.buildGet(METER, ["00100200"]));
    assert.throws(
      () => dlt698.decodeFromServer(request),
      (e) => e instanceof ProtocolError && e.code === "bad-direction",
    );
    const garbage = dlt698.parseFrame(
      dlt698.buildFrame({ control: 0xc3, server: METER, apdu: Uint8Array.of(0x85, 0x01, 0x00, 0x00) }),
    );
    assert.match(dlt698.decodeFrame(garbage).apduError ?? "", /ends inside an OAD/);
    assert.throws(
      () => dlt698.decodeFromServer(garbage),
      (e) => e instanceof ProtocolError && e.code === "bad-apdu",
    );
    const warned = dlt698.decodeFrame(
      dlt698.parseFrame(
        dlt698.buildFrame({
          control: 0x43,
          server: METER,
          apdu: dlt698.encodeApdu(dlt698.getApdu(["00100200"])),
        }),
      ),
    );
    assert.deepEqual(warned.warnings, []);
    const login: dlt698.Apdu = {
      service: "link-request",
      piid: 0,
      requestType: "login",
      heartbeatSeconds: 60,
      time: { year: 2026, month: 1, day: 1, weekday: 4, hour: 0, minute: 0, second: 0, milliseconds: 0 },
    };
    const loginAsData = dlt698.decodeFrame(
      dlt698.parseFrame(dlt698.buildFrame({ control: 0x83, server: METER, apdu: dlt698.encodeApdu(login) })),
    );
    assert.deepEqual(loginAsData.warnings, ["LINK-Request sent with function code 3"]);
    assert.throws(() => dlt698.buildGet(METER, []), /at least one OAD/);
    assert.throws(() => dlt698.buildGet(METER, ["0010020"]), /8 hex digits/);
    assert.throws(() => dlt698.buildTrip(METER, { durationMinutes: 70_000 }), /out of range/);
    assert.throws(() => dlt698.encodeData({ type: "unsigned", value: 256 }), /out of range/);
    assert.throws(() => dlt698.encodeData({ type: "visible-string", value: "电" }), /single bytes/);
    assert.throws(() => dlt698.decodeApdu(Uint8Array.of(0x42)), /unknown service tag/);
  });

  test("time tags: send time and validity travel with requests", () => {
    const timeTag = {
      sent: { year: 2026, month: 11, day: 29, hour: 11, minute: 30, second: 0 },
      validFor: { unit: 1, interval: 5 },
    };
    const d = roundTrip(dlt698.buildGet(METER, ["40000200"], { timeTag }));
    assert.ok(d.apdu?.service === "get-request-normal");
    assert.deepEqual(d.apdu.timeTag, timeTag);
  });

  test("GET-Record of the last daily freeze: lastRecord builds selector 9; DAR and empty answers decode", () => {
    const record = dlt698.lastRecord(dlt698.OAD.DAILY_FROZEN, 1, [
      dlt698.OAD.FREEZE_TIME,
      dlt698.OAD.FORWARD_ACTIVE_ENERGY,
    ]);
    assert.deepEqual(record, {
      oad: "50040200",
      rsd: { selector: 9, last: 1 },
      columns: [{ oad: "20210200" }, { oad: "00100200" }],
    });
    assert.throws(() => dlt698.lastRecord("50040200", 0, ["20210200"]), ProtocolError);
    assert.throws(() => dlt698.lastRecord("50040200", 1, []), ProtocolError);
    const refused = roundTrip(
      dlt698.buildGetRecordResponse(METER, { ...record, result: { dar: 6 } }, { piid: 5 }),
    );
    assert.ok(refused.apdu?.service === "get-response-record");
    assert.deepEqual([refused.apdu.piid, refused.apdu.record.result], [5, { dar: 6 }]);
    assert.deepEqual(refused.attributes[0]?.dar, { code: 6, name: "object unavailable" });
    const empty = roundTrip(dlt698.buildGetRecordResponse(METER, { ...record, result: { rows: [] } }));
    assert.ok(empty.apdu?.service === "get-response-record");
    assert.deepEqual(empty.apdu.record.result, { rows: [] });
    assert.equal(dlt698.oadName(dlt698.OAD.DAILY_FROZEN), "daily frozen records");
    assert.equal(dlt698.oadName(dlt698.OAD.FREEZE_TIME), "data freeze time");
  });

  test("broadcast time: ACTION 4000 method 127 with date_time_s to the broadcast address, exact bytes", () => {
    const time = { year: 2026, month: 11, day: 29, hour: 10, minute: 5, second: 30 };
    const wire = dlt698.buildBroadcastTime(time);
    const d = roundTrip(wire);
    assert.deepEqual(d.server, { type: "broadcast", logical: 0, address: "AA" });
    assert.ok(d.apdu?.service === "action-request-normal");
    assert.deepEqual([d.apdu.omd, d.apdu.data], ["40007F00", { type: "date-time-s", value: time }]);
    assert.equal(dlt698.omdName(d.apdu.omd), "date and time: broadcast time");
    // 68 L(2) C=43 SA=C0 AA CA=00 HCS(2) | 07 01 PIID 40 00 7F 00 1C 07EA 0B 1D 0A 05 1E | no time tag
    assert.equal(Buffer.from(wire).toString("hex").toUpperCase().slice(0, 10), "681A0043C0");
    assert.equal(
      Buffer.from(wire.slice(9, -3)).toString("hex").toUpperCase(),
      "07010040007F001C07EA0B1D0A051E00",
    );
  });
});
