import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt645, dlt698, splitFrames } from "@meterline/protocols";
import {
  createRandom,
  DEFAULT_SLOTS,
  ElectricMeter,
  FaultPlan,
  MeterBus,
  planFleet,
} from "@meterline/simulator";

const ADDRESS = "202600000042";
const START = Date.UTC(2026, 10, 23, 0, 0, 0) - 8 * 3_600_000; // Monday 00:00 in UTC+8
const HOUR = 3_600_000;

function setUp(balanceFen = 10_000) {
  const meter = new ElectricMeter({
    address: ADDRESS,
    version: "2007",
    protocol: "dlt698",
    localPrepaid: true,
    profile: { mean: 800, seed: "m" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 8 * HOUR,
    balanceFen,
  });
  const faults = new FaultPlan({}, createRandom("f"));
  const bus = new MeterBus([{ meter, faults }], { replyDelayMs: 0, lateReplyMs: 0 });
  /** Send a request on the bus; the meter's answer decoded as the gateway reads it. */
  const ask = (request: Uint8Array, now: number) => {
    const [frame] = splitFrames(request, { protocol: "any" }).frames;
    const replies = bus.handle(frame!, now).replies;
    if (replies.length === 0) return null;
    return dlt698.decodeFromServer(dlt698.parseFrame(replies[0]!.bytes));
  };
  const value = (decoded: dlt698.Dlt698Decoded | null, name: string) =>
    decoded?.attributes.flatMap((a) => a.values).find((v) => v.name === name)?.value;
  return { meter, faults, ask, value };
}

describe("simulated DL/T 698.45 meter", () => {
  test("GET: energy rises by tariff, the wallet and overdraft, power, the PIID echoed", () => {
    const { meter, ask, value } = setUp();
    meter.advance(START);
    const oads = [dlt698.OAD.FORWARD_ACTIVE_ENERGY, dlt698.OAD.WALLET, dlt698.OAD.ACTIVE_POWER];
    const first = ask(dlt698.buildGet(ADDRESS, oads, { piid: 9 }), START + HOUR);
    const later = ask(dlt698.buildGet(ADDRESS, oads, { piid: 10 }), START + 30 * HOUR);
    assert.equal(first?.piid?.sequence, 9);
    assert.equal(later?.service, "GET-Response-NormalList");
    const total = (d: typeof first) => Number(value(d, "forward active energy, total"));
    assert.ok(total(later) > total(first), "energy rises");
    const tariffs = [1, 2, 3, 4].map((t) => Number(value(later, `forward active energy, tariff ${t}`)));
    assert.equal(Math.round(tariffs.reduce((a, b) => a + b) * 100), Math.round(total(later) * 100));
    assert.equal(value(later, "current wallet file, remaining amount"), (meter.balanceFen / 100).toFixed(2));
    assert.equal(value(later, "current wallet file, purchase count"), "0");
    assert.ok(Number(meter.balanceFen) < 10_000, "usage was charged");
    assert.notEqual(value(later, "active power, total"), undefined);
    const unknown = ask(dlt698.buildGet(ADDRESS, ["99990200"]), START + 31 * HOUR);
    assert.equal(unknown?.attributes[0]?.dar?.code, 4);
  });

  test("ACTION trip and close switch the relay, read back by 8000.5 and F205.2; arrears refuse a close", () => {
    const { meter, ask } = setUp();
    const now = START + HOUR;
    const trip = ask(dlt698.buildTrip(ADDRESS, {}, { piid: 3 }), now);
    assert.deepEqual(trip?.attributes[0]?.dar, { code: 0, name: "success" });
    assert.ok(meter.relayOpen && meter.relayCommandOpen);
    const state = ask(
      dlt698.buildGet(ADDRESS, [dlt698.OAD.RELAY_COMMAND_STATE, dlt698.OAD.RELAY_OUTPUTS]),
      now + 1,
    );
    assert.equal(state?.attributes[0]?.values[0]?.value, "10000000");
    assert.equal(state?.attributes[1]?.values[1]?.value, "1", "relay 1 current state: output (open)");
    ask(dlt698.buildClose(ADDRESS, "direct"), now + 2);
    assert.ok(!meter.relayOpen && !meter.relayCommandOpen);

    meter.balanceFen = -100;
    ask(dlt698.buildTrip(ADDRESS), now + 3);
    const refused = ask(dlt698.buildClose(ADDRESS, "direct"), now + 4);
    assert.equal(refused?.attributes[0]?.dar?.name, "read/write denied");
    assert.ok(meter.relayOpen);
  });

  test("a 698.45 meter ignores DL/T 645 and other addresses; a lost reply still acts", () => {
    const { meter, faults, ask } = setUp();
    assert.equal(ask(dlt645.buildRead(ADDRESS, dlt645.DI.STATUS_WORD_3), START), null);
    assert.equal(ask(dlt698.buildTrip("202600000043"), START), null);
    assert.ok(!meter.relayOpen);
    faults.inject("noReply");
    assert.equal(ask(dlt698.buildTrip(ADDRESS), START + 1), null);
    assert.ok(meter.relayCommandOpen, "executed, only the reply was lost");
  });

  test("GET-Record 5004 by selector 9: the last freeze at local midnight with the frozen registers", () => {
    const { meter, ask } = setUp();
    const record = dlt698.lastRecord(dlt698.OAD.DAILY_FROZEN, 1, [
      dlt698.OAD.FREEZE_TIME,
      dlt698.OAD.FORWARD_ACTIVE_ENERGY,
      "00200200",
    ]);
    const rowsOf = (decoded: dlt698.Dlt698Decoded | null) => {
      assert.ok(decoded?.apdu?.service === "get-response-record");
      assert.deepEqual(decoded.apdu.record.columns, record.columns);
      return decoded.apdu.record.result;
    };
    meter.advance(START + HOUR);
    assert.deepEqual(rowsOf(ask(dlt698.buildGetRecord(ADDRESS, record, { piid: 4 }), START + HOUR)), {
      rows: [],
    });
    // Two midnights later (local): the newest freeze is the second one, kept as the model froze it.
    const now = START + 50 * HOUR;
    const answer = ask(dlt698.buildGetRecord(ADDRESS, record, { piid: 5 }), now);
    assert.equal(answer?.piid?.sequence, 5);
    const frozen = meter.frozen[0]!;
    assert.equal(meter.frozen.length, 2);
    const total = frozen.steps.reduce((a, b) => a + b, 0);
    assert.deepEqual(rowsOf(answer), {
      rows: [
        [
          { type: "date-time-s", value: { year: 2026, month: 11, day: 25, hour: 0, minute: 0, second: 0 } },
          {
            type: "array",
            items: [total, ...frozen.steps].map((value) => ({ type: "double-long-unsigned", value })),
          },
          { type: "null" },
        ],
      ],
    });
    assert.ok(frozen.steps.reduce((a, b) => a + b, 0) < meter.shownTotal(), "registers moved on since");
    const older = ask(dlt698.buildGetRecord(ADDRESS, { ...record, rsd: { selector: 9, last: 2 } }), now + 1);
    const olderRows = rowsOf(older);
    assert.ok("rows" in olderRows);
    assert.deepEqual(olderRows.rows[0]?.[0], {
      type: "date-time-s",
      value: { year: 2026, month: 11, day: 24, hour: 0, minute: 0, second: 0 },
    });
    const other = ask(dlt698.buildGetRecord(ADDRESS, { ...record, oad: "50060200" }), now + 2);
    assert.deepEqual(rowsOf(other), { dar: 4 });
    meter.config.dailyFrozen = false;
    assert.deepEqual(rowsOf(ask(dlt698.buildGetRecord(ADDRESS, record), now + 3)), { dar: 6 });
  });

  test("clock 4000 and status words 2014 (battery, reverse power); broadcast time sets the clock, unanswered", () => {
    const { meter, ask, value } = setUp();
    const now = START + 10 * HOUR + 30_000;
    const read = (at: number) =>
      ask(dlt698.buildGet(ADDRESS, [dlt698.OAD.CLOCK, dlt698.OAD.STATUS_WORDS]), at);
    const plain = read(now);
    assert.equal(value(plain, "clock"), "2026-11-23 10:00:30");
    assert.equal(value(plain, "meter running status words[1]"), "0000000000000000");
    assert.equal(plain?.attributes[1]?.values.length, 7, "seven status words");
    meter.setConditions({ batteryLow: true, reverseEnergy: true });
    // 645 status word 1 bits 2 and 4 (0x0014) are bits 2 and 4 of the 698 bit-string, counted from the left.
    assert.equal(meter.statusWord1(), 0x0014);
    assert.equal(value(read(now), "meter running status words[1]"), "0010100000000000");

    meter.config.localOffsetMs += 7 * 60_000;
    assert.equal(value(read(now), "clock"), "2026-11-23 10:07:30");
    const requests = meter.counters.requests;
    const time = { year: 2026, month: 11, day: 23, hour: 10, minute: 0, second: 31 };
    assert.equal(ask(dlt698.buildBroadcastTime(time), now + 1_000), null, "a broadcast is not answered");
    assert.equal(meter.counters.requests, requests + 1, "but acted on");
    assert.equal(value(read(now + 1_000), "clock"), "2026-11-23 10:00:31");
    // Addressed to the meter, the same ACTION is answered with its DAR.
    const addressed = ask(
      dlt698.buildAction(ADDRESS, dlt698.OMD.BROADCAST_TIME, { type: "date-time-s", value: time }),
      now + 1_000,
    );
    assert.deepEqual(addressed?.attributes[0]?.dar, { code: 0, name: "success" });
  });

  test("a DL/T 645 meter on the same bus ignores the 698.45 broadcast time", () => {
    const meter645 = new ElectricMeter({
      address: "202600000043",
      version: "2007",
      localPrepaid: false,
      profile: { mean: 800, seed: "n" },
      slots: DEFAULT_SLOTS,
      localOffsetMs: 8 * HOUR + 5 * 60_000,
    });
    const bus = new MeterBus([{ meter: meter645, faults: new FaultPlan({}, createRandom("g")) }], {
      replyDelayMs: 0,
      lateReplyMs: 0,
    });
    const wire = dlt698.buildBroadcastTime({ year: 2026, month: 11, day: 23, hour: 8, minute: 0, second: 0 });
    const [frame] = splitFrames(wire, { protocol: "any" }).frames;
    assert.equal(frame?.protocol, "dlt698");
    assert.deepEqual(bus.handle(frame!, START).replies, []);
    assert.equal(meter645.config.localOffsetMs, 8 * HOUR + 5 * 60_000);
    assert.equal(meter645.counters.requests, 0);
  });

  test("the fleet plan makes a share of electricity meters DL/T 698.45, prepaid ones included", () => {
    const plan = planFleet({ meters: 20, waterRatio: 0, prepaidRatio: 0.5, dlt698Ratio: 0.5, seed: "p" });
    const dlt698Meters = plan.meters.filter((m) => m.protocol === "dlt698");
    assert.equal(dlt698Meters.length, 10);
    assert.ok(dlt698Meters.some((m) => m.localPrepaid) && dlt698Meters.some((m) => !m.localPrepaid));
    assert.equal(
      planFleet({ meters: 20, seed: "p" }).meters.filter((m) => m.protocol === "dlt698").length,
      0,
    );
  });
});
