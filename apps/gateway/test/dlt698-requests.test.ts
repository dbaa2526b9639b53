import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt698, type SplitFrame, splitFrames } from "@meterline/protocols";
import { dialInRefusalOf } from "../src/dtu/authenticate.ts";
import type { MeterInfo, MeterReading } from "../src/model.ts";
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
    assert.deepEqual(pollPlan(meter, true), ["energy", "status", "power", "balance"]);
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
