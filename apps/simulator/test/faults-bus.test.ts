import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt645, splitFrames } from "@meterline/protocols";
import {
  checkRates,
  createRandom,
  DEFAULT_SLOTS,
  ElectricMeter,
  FAULTS,
  FaultPlan,
  MeterBus,
} from "@meterline/simulator";

const frame = (bytes: Uint8Array) => splitFrames(bytes, { protocol: "auto" }).frames[0]!;

function bus(faults: FaultPlan) {
  const meter = new ElectricMeter({
    address: "201000000001",
    version: "2007",
    localPrepaid: false,
    profile: { mean: 100, seed: "b" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 0,
  });
  return {
    meter,
    bus: new MeterBus(
      [
        { meter, faults },
        {
          meter: new ElectricMeter({ ...meter.config, address: "201000000002" }),
          faults: new FaultPlan({}, createRandom("x")),
        },
      ],
      { replyDelayMs: 10, lateReplyMs: 500 },
    ),
  };
}
const validUntil = { year: 2099, month: 1, day: 1 };
const trip = frame(dlt645.buildRelayControl("201000000001", { command: "trip", validUntil }));

describe("faults", () => {
  test("the same seed draws the same faults; injected ones come first", () => {
    const rates = { noReply: 0.2, ignore: 0.1, badChecksum: 0.1 };
    const draw = (seed: string) => {
      const plan = new FaultPlan(rates, createRandom(seed));
      return Array.from({ length: 200 }, () => plan.next());
    };
    assert.deepEqual(draw("s"), draw("s"));
    assert.notDeepEqual(draw("s"), draw("t"));
    const drawn = draw("s");
    const share = drawn.filter((f) => f !== null).length / drawn.length;
    assert.ok(share > 0.25 && share < 0.55, `about 40 % faulted, got ${share}`);
    const plan = new FaultPlan({}, createRandom("z"));
    plan.inject("lateReply", 2);
    assert.deepEqual([plan.next(), plan.next(), plan.next()], ["lateReply", "lateReply", null]);
    assert.throws(() => checkRates({ noReply: 0.7, ignore: 0.5 }));
    assert.throws(() => checkRates({ bogus: 0.1 } as never));
    assert.equal(FAULTS.length, 7);
  });

  test("each fault does what it says to the request and the reply", () => {
    const cases: [string, (r: ReturnType<MeterBus["handle"]>, executed: boolean) => void][] = [
      ["ignore", (r, executed) => assert.ok(r.replies.length === 0 && !executed)],
      ["noReply", (r, executed) => assert.ok(r.replies.length === 0 && executed)],
      [
        "errorReply",
        (r, executed) =>
          assert.ok(
            !executed &&
              dlt645.decodeReply(dlt645.parseFrame(r.replies[0]!.bytes)).message.kind === "error-reply",
          ),
      ],
      [
        "lateReply",
        (r, executed) => assert.ok(executed && r.replies[0]!.delayMs === 500 && !r.replies[0]!.holdsBus),
      ],
      ["duplicateReply", (r, executed) => assert.ok(executed && r.replies.length === 2)],
      [
        "badChecksum",
        (r, executed) =>
          assert.ok(executed && splitFrames(r.replies[0]!.bytes, { protocol: "auto" }).frames.length === 0),
      ],
      ["disconnect", (r, executed) => assert.ok(executed && r.disconnect && r.replies.length === 0)],
    ];
    for (const [fault, check] of cases) {
      const plan = new FaultPlan({}, createRandom("f"));
      plan.inject(fault as never);
      const { meter, bus: b } = bus(plan);
      const result = b.handle(trip, Date.UTC(2026, 0, 1));
      check(result, meter.counters.relayOps === 1);
    }
  });

  test("only the addressed meter answers; wildcards reach it; a broadcast is answered by nobody", () => {
    const { meter, bus: b } = bus(new FaultPlan({}, createRandom("a")));
    const now = Date.UTC(2026, 0, 1);
    assert.equal(b.handle(frame(dlt645.buildRead("201000000002", "00010000")), now).replies.length, 1);
    assert.equal(meter.counters.requests, 0);
    assert.equal(b.handle(frame(dlt645.buildRead("AAAAAA000001", "00010000")), now).replies.length, 1);
    assert.equal(meter.counters.requests, 1);
    assert.equal(
      b.handle(frame(dlt645.buildBroadcastTime({ year: 2026, month: 1, day: 1 })), now).replies.length,
      0,
    );
    assert.equal(b.handle(frame(dlt645.buildRead("209999999999", "00010000")), now).replies.length, 0);
  });
});
