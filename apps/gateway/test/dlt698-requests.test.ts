import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt698, type SplitFrame, splitFrames } from "@meterline/protocols";
import { dialInRefusalOf } from "../src/dtu/authenticate.ts";
import type { MeterInfo, MeterReading } from "../src/model.ts";
import { statusWord1FromBits } from "../src/protocol/dlt698-requests.ts";
import { applyReply, diOf, factFrom, pollPlan, readBackDi } from "../src/protocol/read-items.ts";
import { type MeterReply, RequestFactory } from "../src/protocol/requests.ts";

const meter: MeterInfo = {
  id: "9",
  address: "202600000042",
  protocol: "dlt698",
  transport: "tcp",
  collectorId: "DTU698",
  channel: 1,
  model: { localPrepaid: true },
  pollIntervalMs: 0,
};

const u32 = (value: number): dlt698.Data => ({ type: "double-long-unsigned", value });
const energy = (...values: number[]): dlt698.Data => ({ type: "array", items: values.map(u32) });
const relayOutputs = (state: 0 | 1): dlt698.Data => ({
  type: "array",
  items: [
    {
      type: "structure",
      items: [
        { type: "visible-string", value: "relay 1" },
        { type: "enum", value: state },
        { type: "enum", value: 1 },
        { type: "enum", value: 0 },
      ],
    },
  ],
});

function frameOf(bytes: Uint8Array): SplitFrame {
  const [frame] = splitFrames(bytes, { protocol: "any" }).frames;
  assert.ok(frame, "a whole frame");
  return frame;
}

/** The PIID the request carried, as the meter would echo it. */
function piidOf(bytes: Uint8Array): number {
  const apdu = dlt698.decodeFromClient(dlt698.parseFrame(bytes)).apdu;
  assert.ok(apdu && "piid" in apdu);
  return apdu.piid;
}

/** 698.45 ACTIONs carry no validity time (645 relay frames do): it is ignored. */
const VALID_UNTIL = { year: 2026, month: 5, day: 1, hour: 12, minute: 0, second: 0 };

const reading = (): MeterReading => ({ meterId: "9", address: meter.address, at: new Date(), missing: [] });

function ask(factory: RequestFactory, item: Parameters<typeof diOf>[0]) {
  const request = factory.read(meter, diOf(item, meter));
  const piid = piidOf(request.bytes);
  return { request, piid };
}

describe("DL/T 698.45 meters: GET into the reading fields of the 645 path", () => {
  test("a prepaid meter's poll reads energy, relay, power and the wallet; each reply fills its fields", () => {
    let ser = 0;
    const factory = new RequestFactory(() => ++ser);
    assert.deepEqual(pollPlan(meter, false), ["energy", "status", "status-1", "power", "balance"]);
    const out = reading();

    const e = ask(factory, "energy");
    const energyReply = e.request.accept(
      frameOf(
        dlt698.buildGetResponse(
          meter.address,
          [{ oad: "00100200", result: { data: energy(1234567, 1000, 200000, 33456, 1111) } }],
          { piid: e.piid },
        ),
      ),
    );
    assert.ok(energyReply && applyReply(out, "energy", energyReply));
    assert.deepEqual(out.energy, { total: "12345.67", tariffs: ["10.00", "2000.00", "334.56", "11.11"] });

    const s = ask(factory, "status");
    const statusReply = s.request.accept(
      frameOf(
        dlt698.buildGetResponse(
          meter.address,
          [
            { oad: "80000500", result: { data: { type: "bit-string", bits: "10000000" } } },
            { oad: "F2050200", result: { data: relayOutputs(1) } },
            { oad: "80010200", result: { data: { type: "enum", value: 0 } } },
          ],
          { piid: s.piid },
        ),
      ),
    );
    assert.ok(statusReply && applyReply(out, "status", statusReply));
    assert.equal(out.relay, "open");

    const p = ask(factory, "power");
    const powerReply = p.request.accept(
      frameOf(
        dlt698.buildGetResponse(
          meter.address,
          [
            {
              oad: "20040200",
              result: {
                data: {
                  type: "array",
                  items: [-12345, -12345, 0, 0].map((value): dlt698.Data => ({ type: "double-long", value })),
                },
              },
            },
          ],
          { piid: p.piid },
        ),
      ),
    );
    assert.ok(powerReply && applyReply(out, "power", powerReply));
    assert.equal(out.activePower, "-1.2345", "1234.5 W fed back is -1.2345 kW, exactly");

    const w = ask(factory, "balance");
    const wallet: dlt698.Data = { type: "structure", items: [u32(10007), u32(12)] };
    const walletReply = w.request.accept(
      frameOf(
        dlt698.buildGetResponse(meter.address, [{ oad: "202C0200", result: { data: wallet } }], {
          piid: w.piid,
        }),
      ),
    );
    assert.ok(walletReply && applyReply(out, "balance", walletReply));
    assert.deepEqual([out.balance, out.purchaseCount], ["100.07", 12]);
  });

  test("a reply is taken only from the meter asked, with the PIID and the OADs asked for", () => {
    let ser = 0;
    const factory = new RequestFactory(() => ++ser);
    const { request, piid } = ask(factory, "energy");
    const answer = (server: string, answerPiid: number, oad = "00100200") =>
      request.accept(
        frameOf(
          dlt698.buildGetResponse(server, [{ oad, result: { data: energy(1, 0, 0, 0, 0) } }], {
            piid: answerPiid,
          }),
        ),
      );
    assert.equal(answer("202600000043", piid), undefined, "another meter");
    assert.equal(answer(meter.address, (piid + 1) & 0x3f), undefined, "a late reply to an earlier request");
    assert.equal(answer(meter.address, piid, "00200200"), undefined, "other objects");
    assert.equal(request.accept(frameOf(request.bytes)), undefined, "the request's own echo");
    assert.equal(answer(meter.address, piid)?.kind, "read");
    const refused = request.accept(
      frameOf(dlt698.buildGetResponse(meter.address, [{ oad: "00100200", result: { dar: 4 } }], { piid })),
    );
    assert.deepEqual(refused, { kind: "error", detail: "error reply: 00100200 object undefined" });
  });

  test("ad-hoc reads take an OAD or a list; anything else is refused before it is sent", () => {
    const factory = new RequestFactory(() => 1);
    const request = factory.read(meter, "202c0200,00100200");
    const apdu = dlt698.decodeFromClient(dlt698.parseFrame(request.bytes)).apdu;
    assert.deepEqual(apdu?.service === "get-request-normal-list" && apdu.oads, ["202C0200", "00100200"]);
    assert.throws(() => factory.read(meter, "0010020"), /not a DL\/T 698.45 OAD/);
    assert.throws(() => factory.read(meter, "00010000; DROP"), /not a DL\/T 698.45 OAD/);
  });
});

describe("DL/T 698.45 daily freeze, clock and status word 1 into the fields of the 645 path", () => {
  const frozenRow = (time: dlt698.DateTimeS, registers: dlt698.Data): dlt698.Data[] => [
    { type: "date-time-s", value: time },
    registers,
  ];
  const MIDNIGHT = { year: 2026, month: 11, day: 29, hour: 0, minute: 0, second: 0 };
  function recordAnswer(
    request: ReturnType<RequestFactory["read"]>,
    result: dlt698.ResultRecord["result"],
    options: { server?: string; piid?: number; oad?: string; columns?: dlt698.Csd[] } = {},
  ) {
    const asked = dlt698.decodeFromClient(dlt698.parseFrame(request.bytes)).apdu;
    assert.ok(asked?.service === "get-request-record");
    return request.accept(
      frameOf(
        dlt698.buildGetRecordResponse(
          options.server ?? meter.address,
          {
            oad: options.oad ?? asked.record.oad,
            columns: options.columns ?? asked.record.columns,
            result,
          },
          { piid: options.piid ?? asked.piid },
        ),
      ),
    );
  }

  test("once a day the poll adds the last daily freeze and the clock; the freeze is GET-Record, selector 9", () => {
    assert.deepEqual(pollPlan(meter, true), [
      "energy",
      "status",
      "status-1",
      "power",
      "balance",
      "daily-frozen",
      "clock",
    ]);
    assert.equal(diOf("daily-frozen", meter), "50040200#1:20210200,00100200");
    const request = new RequestFactory(() => 7).read(meter, diOf("daily-frozen", meter));
    const apdu = dlt698.decodeFromClient(dlt698.parseFrame(request.bytes)).apdu;
    assert.deepEqual(apdu, {
      service: "get-request-record",
      piid: 7,
      timeTag: null,
      record: {
        oad: "50040200",
        rsd: { selector: 9, last: 1 },
        columns: [{ oad: "20210200" }, { oad: "00100200" }],
      },
    });
    assert.deepEqual([diOf("clock", meter), diOf("status-1", meter)], ["40000200", "20140200"]);
  });

  test("the freeze row lands in dailyFrozen as the 645 path gives it: time to the minute, kWh with 2 decimals", () => {
    const request = new RequestFactory(() => 3).read(meter, diOf("daily-frozen", meter));
    const reply = recordAnswer(request, {
      rows: [frozenRow(MIDNIGHT, energy(1234567, 1000, 200000, 33456, 1000111))],
    });
    const out = reading();
    assert.ok(reply && applyReply(out, "daily-frozen", reply));
    assert.deepEqual(out.dailyFrozen, {
      time: "2026-11-29 00:00",
      energy: { total: "12345.67", tariffs: ["10.00", "2000.00", "334.56", "10001.11"] },
    });
  });

  test("a freeze answer is taken only from the meter asked, with the PIID, object and columns asked for", () => {
    const request = new RequestFactory(() => 12).read(meter, diOf("daily-frozen", meter));
    const rows = { rows: [frozenRow(MIDNIGHT, energy(1, 1, 0, 0, 0))] };
    assert.equal(recordAnswer(request, rows, { server: "202600000043" }), undefined, "another meter");
    assert.equal(recordAnswer(request, rows, { piid: 13 }), undefined, "another request's PIID");
    assert.equal(recordAnswer(request, rows, { oad: "50060200" }), undefined, "the monthly freeze");
    assert.equal(
      recordAnswer(request, rows, { columns: [{ oad: "20210200" }, { oad: "00200200" }] }),
      undefined,
      "other columns",
    );
    assert.equal(request.accept(frameOf(request.bytes)), undefined, "the request's own echo");
    const normal = request.accept(
      frameOf(
        dlt698.buildGetResponse(meter.address, [{ oad: "50040200", result: { dar: 6 } }], { piid: 12 }),
      ),
    );
    assert.equal(normal, undefined, "a GET-Response-Normal is not the answer to a GET-Record");
    assert.equal(recordAnswer(request, rows)?.kind, "read");
  });

  test("a DAR or no record is an error reply: the item is missing, nothing lands in the reading", () => {
    const factory = new RequestFactory(() => 20);
    const refused = recordAnswer(factory.read(meter, diOf("daily-frozen", meter)), { dar: 6 });
    assert.deepEqual(refused, { kind: "error", detail: "error reply: 50040200 object unavailable" });
    const empty = recordAnswer(factory.read(meter, diOf("daily-frozen", meter)), { rows: [] });
    assert.deepEqual(empty, {
      kind: "error",
      detail: "no record: 50040200 has no row for the selection (no freeze yet?)",
    });
    const out = reading();
    assert.equal(applyReply(out, "daily-frozen", refused!), false);
    assert.equal(applyReply(out, "daily-frozen", empty!), false);
    const nullEnergy = recordAnswer(factory.read(meter, diOf("daily-frozen", meter)), {
      rows: [frozenRow(MIDNIGHT, { type: "null" })],
    });
    assert.equal(applyReply(out, "daily-frozen", nullEnergy!), false, "a row without registers");
    assert.equal(out.dailyFrozen, undefined);
  });

  test("clock 4000 is meterTime; status word 1 of 2014 maps bit for bit onto 645's hex word", () => {
    let ser = 30;
    const factory = new RequestFactory(() => ++ser);
    const out = reading();
    const c = ask(factory, "clock");
    const clock = c.request.accept(
      frameOf(
        dlt698.buildGetResponse(
          meter.address,
          [
            {
              oad: "40000200",
              result: {
                data: {
                  type: "date-time-s",
                  value: { year: 2026, month: 11, day: 29, hour: 10, minute: 7, second: 5 },
                },
              },
            },
          ],
          { piid: c.piid },
        ),
      ),
    );
    assert.ok(clock && applyReply(out, "clock", clock));
    assert.equal(out.meterTime, "2026-11-29 10:07:05", "as the 645 path joins date and time");

    const words = (first: string): dlt698.Data => ({
      type: "array",
      items: [first, ...Array(6).fill("0000000000000000")].map(
        (bits): dlt698.Data => ({ type: "bit-string", bits }),
      ),
    });
    const s = ask(factory, "status-1");
    const status = s.request.accept(
      frameOf(
        dlt698.buildGetResponse(
          meter.address,
          [{ oad: "20140200", result: { data: words("0010100000000000") } }],
          {
            piid: s.piid,
          },
        ),
      ),
    );
    assert.ok(status && applyReply(out, "status-1", status));
    assert.equal(out.statusWord1, "0014", "clock battery (bit 2) and reverse active power (bit 4)");
  });

  test("statusWord1FromBits: bit n of the bit-string (n-th on the wire) is 645 bit n", () => {
    assert.equal(statusWord1FromBits("0000000000000000"), "0000");
    assert.equal(statusWord1FromBits("0010000000000000"), "0004", "clock battery low");
    assert.equal(statusWord1FromBits("0001000000000000"), "0008", "reading battery low");
    assert.equal(statusWord1FromBits("0000100000000000"), "0010", "active power reverse");
    assert.equal(statusWord1FromBits("0000000010000000"), "0100", "bit 8 in the second octet");
    assert.equal(statusWord1FromBits("00101"), null);
    assert.equal(statusWord1FromBits("001000000000000x"), null);
  });

  test("an ad-hoc read may ask a record; a malformed record item is refused before it is sent", () => {
    const factory = new RequestFactory(() => 1);
    const request = factory.read(meter, "50040200#2:20210200");
    const apdu = dlt698.decodeFromClient(dlt698.parseFrame(request.bytes)).apdu;
    assert.ok(apdu?.service === "get-request-record");
    assert.deepEqual(apdu.record.rsd, { selector: 9, last: 2 });
    assert.throws(() => factory.read(meter, "50040200#0:20210200"), /not a DL\/T 698.45 OAD/);
    assert.throws(() => factory.read(meter, "50040200#1:"), /not a DL\/T 698.45 OAD/);
  });
});

describe("DL/T 698.45 relay control: ACTION 8000, settled by reading 8000.5 / F205.2 back", () => {
  test("trip and close are ACTIONs with the right method; DAR 0 is an acknowledgement, others an error", () => {
    let ser = 40;
    const factory = new RequestFactory(() => ++ser);
    const trip = factory.relay(meter, "trip", VALID_UNTIL);
    const tripApdu = dlt698.decodeFromClient(dlt698.parseFrame(trip.bytes)).apdu;
    assert.equal(tripApdu?.service === "action-request-normal" && tripApdu.omd, dlt698.OMD.TRIP);
    const piid = piidOf(trip.bytes);
    const ack = (omd: string, dar: number) =>
      trip.accept(frameOf(dlt698.buildActionResponse(meter.address, omd, dar, null, { piid })));
    assert.deepEqual(ack(dlt698.OMD.TRIP, 0), { kind: "ack" });
    assert.deepEqual(ack(dlt698.OMD.TRIP, 3), { kind: "error", detail: "error reply: read/write denied" });
    assert.equal(ack(dlt698.OMD.CLOSE, 0), undefined, "an answer to another method");

    const close = factory.relay(meter, "close-direct", VALID_UNTIL);
    const closeApdu = dlt698.decodeFromClient(dlt698.parseFrame(close.bytes)).apdu;
    assert.ok(closeApdu?.service === "action-request-normal");
    assert.equal(closeApdu.omd, dlt698.OMD.CLOSE);
    assert.deepEqual(closeApdu.data, dlt698.closeData("direct"));
  });

  test("the read-back reads command state, relay outputs and power hold in one GET", () => {
    const item = { item: "status-word-3" } as const;
    assert.equal(readBackDi(item, meter), "80000500,F2050200,80010200");
    const reply: MeterReply = {
      kind: "read",
      fields: [],
      relayStatus: { relayCommandOpen: true, relayOpen: false, powerHold: false, relay: "trip-pending" },
    };
    assert.deepEqual(factFrom(item, reply), {
      item: "status-word-3",
      relayCommandOpen: true,
      relayOpen: false,
      powerHold: false,
    });
    assert.equal(readBackDi({ item: "purchase-count" }, meter), "202C0200");
  });
});

describe("DL/T 698.45 meters dialling in prove themselves by their source network", () => {
  test("no allowed networks, or a source outside them, is refused; inside them, served", () => {
    assert.equal(dialInRefusalOf(undefined, "10.0.0.1"), "unknown collector");
    assert.equal(
      dialInRefusalOf({ secret: "x".repeat(16) }, "10.0.0.1"),
      "dial-in meter has no allowed networks",
    );
    const apn = { allowedNetworks: ["10.20.0.0/16"] };
    assert.equal(dialInRefusalOf(apn, "10.21.0.1"), "source network not allowed");
    assert.equal(dialInRefusalOf(apn, "::ffff:10.20.3.4"), undefined);
  });
});
