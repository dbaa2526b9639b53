import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { clockOffsetSeconds, conditionFacts, powerText } from "./condition-facts.ts";

const at = new Date("2026-11-20T04:00:00Z"); // 12:00:00 in Asia/Shanghai
const reading = (extra: Partial<MeterReading>): MeterReading => ({
  meterId: "1",
  address: "201000000001",
  at,
  missing: [],
  ...extra,
});

describe("the alarm facts the readings sink keeps", () => {
  test("the clock offset is the meter's wall clock against the true one in the tenant's zone", () => {
    assert.equal(clockOffsetSeconds("2026-11-20 12:00:00", at, "Asia/Shanghai"), 0);
    assert.equal(clockOffsetSeconds("2026-11-20 12:07:30", at, "Asia/Shanghai"), 450);
    assert.equal(clockOffsetSeconds("2026-11-20 11:59:59", at, "Asia/Shanghai"), -1);
    // Across midnight and in another zone.
    assert.equal(clockOffsetSeconds("2026-11-21 00:00:00", at, "Asia/Shanghai"), 12 * 3600);
    assert.equal(clockOffsetSeconds("2026-11-20 04:00:00", at, "UTC"), 0);
    assert.equal(clockOffsetSeconds(null, at, "Asia/Shanghai"), null);
    assert.equal(clockOffsetSeconds("2026-11-20", at, "Asia/Shanghai"), null);
  });

  test("power keeps its sign and four places", () => {
    assert.equal(powerText("1.5"), "1.5000");
    assert.equal(powerText("-60"), "-60.0000");
    assert.equal(powerText("0.12345"), "0.1234");
    assert.equal(powerText(undefined), null);
    assert.equal(powerText("x"), null);
  });

  test("status word 3 tells a relay commanded open but closed; a missing item is null, never false", () => {
    assert.equal(conditionFacts(reading({ statusWord3: "0040" }), "UTC").relayStuck, true);
    assert.equal(conditionFacts(reading({ statusWord3: "0050" }), "UTC").relayStuck, false);
    // Open while commanded closed: a close allowed, waiting for the button; not stuck.
    assert.equal(conditionFacts(reading({ statusWord3: "0010" }), "UTC").relayStuck, false);
    assert.equal(conditionFacts(reading({}), "UTC").relayStuck, null);
    assert.equal(conditionFacts(reading({ valve: "abnormal" }), "UTC").valveFault, 1);
    assert.equal(conditionFacts(reading({ valve: "open" }), "UTC").valveFault, 0);
    assert.equal(conditionFacts(reading({}), "UTC").valveFault, null);
    assert.deepEqual(conditionFacts(reading({ statusWord1: "0010", coverOpenCount: 3 }), "UTC"), {
      statusWord1: "0010",
      activePower: null,
      clockOffset: null,
      coverOpenCount: 3,
      relayStuck: null,
      valveFault: null,
    });
  });
});
