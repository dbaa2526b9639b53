import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  balanceHolds,
  continuousFlowHolds,
  DEFAULT_RULES,
  effectiveRules,
  findings,
  hundredths,
  offlineHolds,
  type RegisterRead,
  registerBackHolds,
  registerJumpHolds,
} from "./alarm-rules.ts";

const t0 = new Date("2026-11-20T00:00:00Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const read = (minutes: number, total: string): RegisterRead => ({ at: at(minutes), total });

describe("alarm rules", () => {
  test("hundredths are exact and reject anything not a decimal", () => {
    assert.equal(hundredths("12.34"), 1234n);
    assert.equal(hundredths("12.3"), 1230n);
    assert.equal(hundredths("12"), 1200n);
    assert.equal(hundredths("-0.05"), -5n);
    assert.equal(hundredths("99999999999999.99"), 9999999999999999n);
    assert.throws(() => hundredths("1e3"));
  });

  test("each balance rule holds at its own level only", () => {
    const cases: [level: number | null, low: boolean, severe: boolean, arrears: boolean][] = [
      [null, false, false, false],
      [0, false, false, false],
      [1, true, false, false],
      [2, false, true, false],
      [3, false, false, true],
    ];
    for (const [level, low, severe, arrears] of cases) {
      assert.deepEqual(
        [
          balanceHolds("balance_low", level),
          balanceHolds("balance_severe", level),
          balanceHolds("arrears", level),
        ],
        [low, severe, arrears],
        `level ${level}`,
      );
    }
  });

  test("offline: strictly longer than the threshold, never for a meter that never answered", () => {
    assert.equal(offlineHolds(null, at(1000), 60), false);
    assert.equal(offlineHolds(at(0), at(60), 60), false);
    assert.equal(offlineHolds(at(0), at(60.001), 60), true);
    assert.equal(offlineHolds(at(0), at(5), 0), true);
  });

  test("register back: the last read below the one before; one read is no interval", () => {
    assert.equal(registerBackHolds([]), false);
    assert.equal(registerBackHolds([read(0, "10.00")]), false);
    assert.equal(registerBackHolds([read(0, "10.00"), read(15, "10.00")]), false);
    assert.equal(registerBackHolds([read(0, "10.00"), read(15, "9.99")]), true);
    // Only the latest interval counts: a recovered register clears it.
    assert.equal(registerBackHolds([read(0, "10.00"), read(15, "9.00"), read(30, "9.50")]), false);
  });

  test("register jump: more than units per hour over the interval's time", () => {
    // 50 units/h over 15 minutes allows 12.50.
    assert.equal(registerJumpHolds([read(0, "100.00"), read(15, "112.50")], 50), false);
    assert.equal(registerJumpHolds([read(0, "100.00"), read(15, "112.51")], 50), true);
    assert.equal(registerJumpHolds([read(0, "100.00"), read(15, "90.00")], 50), false);
    // No time between reads allows nothing.
    assert.equal(registerJumpHolds([read(0, "100.00"), read(0, "100.01")], 50), true);
    assert.equal(registerJumpHolds([read(0, "100.00"), read(0, "100.00")], 50), false);
    assert.equal(registerJumpHolds([read(0, "100.00")], 50), false);
  });

  test("continuous flow: every interval of the window rising, the window covered", () => {
    const hourly = (values: number[]) => values.map((v, i) => read(i * 60, v.toFixed(2)));
    const rising = hourly(Array.from({ length: 25 }, (_, i) => 100 + i * 0.1));
    const now = at(24 * 60);
    assert.equal(continuousFlowHolds(rising, now, 24), true);
    // One still hour inside the window breaks it.
    const still = rising.map((r, i) => (i === 12 ? { ...r, total: rising[11]!.total } : r));
    assert.equal(continuousFlowHolds(still, now, 24), false);
    // Reads that do not reach back to the window's start prove nothing.
    assert.equal(continuousFlowHolds(rising.slice(1), now, 24), false);
    // A still interval before the window does not matter.
    const earlier = [read(-60, rising[0]!.total), ...rising];
    assert.equal(continuousFlowHolds(earlier, now, 24), true);
    assert.equal(continuousFlowHolds(rising, now, 0), false);
    // A rise across a gap longer than two hours of the day proves use, not flow that never stopped.
    const gappy = [read(-24 * 60, "1.00"), read(-60, "2.00"), ...rising];
    assert.equal(continuousFlowHolds(gappy, now, 24), true, "the gap lies before the window");
    const sparse = [read(0, "1.00"), read(150, "2.00"), read(24 * 60, "3.00")];
    assert.equal(continuousFlowHolds(sparse, now, 24), false);
    const twoHourly = Array.from({ length: 13 }, (_, i) => read(i * 120, (1 + i).toFixed(2)));
    assert.equal(continuousFlowHolds(twoHourly, now, 24), true);
    assert.equal(continuousFlowHolds([], now, 24), false);
  });

  test("tenant rows override names, thresholds and switches; unknown codes are skipped", () => {
    const rules = effectiveRules([
      { rule_code: "offline", check_rule_name: "离线超时", threshold: "30.00", enabled: 1 },
      { rule_code: "register_jump", check_rule_name: "", threshold: null, enabled: 0 },
      { rule_code: "nonsense", check_rule_name: "x", threshold: "1", enabled: 1 },
    ]);
    assert.deepEqual(rules.offline, { code: "offline", name: "离线超时", enabled: true, threshold: 30 });
    assert.deepEqual(rules.register_jump, {
      code: "register_jump",
      name: DEFAULT_RULES.register_jump.name,
      enabled: false,
      threshold: DEFAULT_RULES.register_jump.threshold,
    });
    assert.equal(rules.water_flow.threshold, 24);
  });

  test("findings: enabled rules that hold, flow for water only, back before jump", () => {
    const rules = effectiveRules([]);
    const facts = {
      energyType: 1 as const,
      alarmLevel: 2,
      lastReadAt: at(0),
      reads: [read(0, "5.00"), read(15, "4.00")],
    };
    assert.deepEqual(
      findings(facts, rules, at(120)).map((f) => [f.code, f.level]),
      [
        ["balance_severe", 2],
        ["offline", 0],
        ["register_back", 0],
      ],
    );
    const off = effectiveRules([
      { rule_code: "balance_severe", check_rule_name: "严重", threshold: null, enabled: 0 },
    ]);
    assert.deepEqual(
      findings(facts, off, at(15)).map((f) => f.code),
      ["register_back"],
    );
    const hourly = Array.from({ length: 25 }, (_, i) => read(i * 60, (100 + i * 0.1).toFixed(2)));
    const flowing = { energyType: 2 as const, alarmLevel: null, lastReadAt: at(24 * 60), reads: hourly };
    assert.deepEqual(
      findings(flowing, rules, at(24 * 60)).map((f) => f.code),
      ["water_flow"],
    );
    assert.deepEqual(findings({ ...flowing, energyType: 1 }, rules, at(24 * 60)), []);
  });
});
