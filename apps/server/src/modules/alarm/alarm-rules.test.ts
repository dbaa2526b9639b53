import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  balanceHolds,
  batteryLowHolds,
  clockDriftHolds,
  commandUnsettledHolds,
  continuousFlowHolds,
  coverOpenHolds,
  DEFAULT_RULES,
  effectiveRules,
  findings,
  hundredths,
  NO_CONDITION,
  notifiesBySms,
  offlineHolds,
  overPowerHolds,
  type RegisterRead,
  registerBackHolds,
  registerJumpHolds,
  relayFaultHolds,
  reverseEnergyHolds,
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
      condition: NO_CONDITION,
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
    const flowing = {
      energyType: 2 as const,
      alarmLevel: null,
      lastReadAt: at(24 * 60),
      reads: hourly,
      condition: NO_CONDITION,
    };
    assert.deepEqual(
      findings(flowing, rules, at(24 * 60)).map((f) => f.code),
      ["water_flow"],
    );
    assert.deepEqual(findings({ ...flowing, energyType: 1 }, rules, at(24 * 60)), []);
  });

  test("reverse energy: status word 1 bit 4 alone, whatever the other bits", () => {
    assert.equal(reverseEnergyHolds(null), false);
    assert.equal(reverseEnergyHolds(0x0000), false);
    assert.equal(reverseEnergyHolds(0x0010), true);
    assert.equal(reverseEnergyHolds(0xffef), false);
    assert.equal(reverseEnergyHolds(0xffff), true);
    // Reactive power reversed (bit 5) is not reverse energy.
    assert.equal(reverseEnergyHolds(0x0020), false);
  });

  test("battery low: status word 1 bit 2 or bit 3, or the water ST bit", () => {
    const word = (statusWord1: number | null, batteryLow = false) =>
      batteryLowHolds({ statusWord1, batteryLow });
    assert.equal(word(null), false);
    assert.equal(word(0x0000), false);
    assert.equal(word(0x0004), true);
    assert.equal(word(0x0008), true);
    assert.equal(word(0x0010), false);
    assert.equal(word(0xfff3), false);
    assert.equal(word(null, true), true);
  });

  test("clock drift: strictly more than the threshold, ahead or behind", () => {
    assert.equal(clockDriftHolds(null, 5), false);
    assert.equal(clockDriftHolds(300, 5), false);
    assert.equal(clockDriftHolds(301, 5), true);
    assert.equal(clockDriftHolds(-300, 5), false);
    assert.equal(clockDriftHolds(-301, 5), true);
    assert.equal(clockDriftHolds(1, 0), true);
    assert.equal(clockDriftHolds(0, 0), false);
  });

  test("cover open: from the moment the count rose until the window has passed", () => {
    assert.equal(coverOpenHolds(null, at(0), 24), false);
    assert.equal(coverOpenHolds(at(0), at(0), 24), true);
    assert.equal(coverOpenHolds(at(0), at(24 * 60 - 1), 24), true);
    assert.equal(coverOpenHolds(at(0), at(24 * 60), 24), false);
    assert.equal(coverOpenHolds(at(0), at(0), 0), false);
  });

  test("relay fault: stuck longer than the settle time, not at it", () => {
    assert.equal(relayFaultHolds(null, at(60), 5), false);
    assert.equal(relayFaultHolds(at(0), at(5), 5), false);
    assert.equal(relayFaultHolds(at(0), new Date(at(5).getTime() + 1), 5), true);
    assert.equal(relayFaultHolds(at(0), at(0), 0), false);
  });

  test("over-power: the size of the power above the limit, compared exactly", () => {
    assert.equal(overPowerHolds(null, 20), false);
    assert.equal(overPowerHolds("20.0000", 20), false);
    assert.equal(overPowerHolds("20.0001", 20), true);
    assert.equal(overPowerHolds("-20.0001", 20), true);
    assert.equal(overPowerHolds("-20", 20), false);
    assert.equal(overPowerHolds("0.0001", 0), true);
    assert.equal(overPowerHolds("0", 0), false);
    assert.equal(overPowerHolds("13.2", 13.2), false);
    assert.equal(overPowerHolds("13.2001", 13.2), true);
    assert.throws(() => overPowerHolds("1e3", 20));
  });

  test("unsettled command: timed out longer ago than the threshold", () => {
    const command = { type: "relay", at: at(0) };
    assert.equal(commandUnsettledHolds(null, at(600), 60), false);
    assert.equal(commandUnsettledHolds(command, at(60), 60), false);
    assert.equal(commandUnsettledHolds(command, new Date(at(60).getTime() + 1), 60), true);
  });

  test("findings: each condition rule for its kind of meter, with what the operator reads", () => {
    const rules = effectiveRules([]);
    const electric = {
      energyType: 1 as const,
      alarmLevel: null,
      lastReadAt: at(0),
      reads: [],
      condition: {
        statusWord1: 0x0014,
        relayStuckSince: at(-10),
        clockOffsetSeconds: -420,
        coverOpenedAt: at(-60),
        batteryLow: false,
        valveAbnormal: true,
        activePower: "60.0000",
        unsettledCommand: { type: "relay", at: at(-90) },
      },
    };
    const found = findings(electric, rules, at(0));
    assert.deepEqual(
      found.map((f) => f.code),
      [
        "reverse_energy",
        "clock_drift",
        "cover_open",
        "relay_fault",
        "battery_low",
        "over_power",
        "command_unsettled",
      ],
    );
    assert.equal(found.find((f) => f.code === "clock_drift")?.content, "表计时钟慢 7 分钟");
    assert.match(found.find((f) => f.code === "over_power")?.content ?? "", /60\.0000 kW/);
    // The same facts on a water meter: only what a water meter reports (ST battery bit and valve).
    const water = {
      ...electric,
      energyType: 2 as const,
      condition: { ...electric.condition, statusWord1: null },
    };
    assert.deepEqual(
      findings(water, rules, at(0)).map((f) => f.code),
      ["clock_drift", "valve_fault", "command_unsettled"],
    );
    assert.deepEqual(
      findings({ ...water, condition: { ...water.condition, batteryLow: true } }, rules, at(0)).map(
        (f) => f.code,
      ),
      ["clock_drift", "battery_low", "valve_fault", "command_unsettled"],
    );
    // Thresholds are the tenant's: a wider clock tolerance and a higher power limit silence both.
    const lenient = effectiveRules([
      { rule_code: "clock_drift", check_rule_name: "时钟", threshold: "10", enabled: 1 },
      { rule_code: "over_power", check_rule_name: "功率", threshold: "80", enabled: 1 },
      { rule_code: "relay_fault", check_rule_name: "继电器", threshold: "30", enabled: 0 },
    ]);
    assert.deepEqual(
      findings(electric, lenient, at(0)).map((f) => f.code),
      ["reverse_energy", "cover_open", "battery_low", "command_unsettled"],
    );
  });
});

test("an owner is told by SMS when the scheme's channels name sms or name none", () => {
  assert.equal(notifiesBySms(null), true);
  assert.equal(notifiesBySms(""), true);
  assert.equal(notifiesBySms(" , "), true);
  assert.equal(notifiesBySms("console,sms"), true);
  assert.equal(notifiesBySms(" sms "), true);
  assert.equal(notifiesBySms("console"), false);
  assert.equal(notifiesBySms("console,wechat"), false);
  assert.equal(notifiesBySms("smsx"), false);
});

test("hundredths: registers as kept read without a match agree with every other form of the same value", () => {
  // By whole and hundredths parts, not by floats: each value written plainly ("123.40"), with one
  // more place ("123.405", cut), with one place ("123.4"), bare ("123"), spaced and signed.
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let i = 0; i < 2000; i++) {
    const whole = BigInt(next(10) === 0 ? 0 : next(2147483647)) * BigInt(next(3) === 0 ? 1000000 : 1);
    const cents = BigInt(next(100));
    const two = String(cents).padStart(2, "0");
    const expected = whole * 100n + cents;
    assert.equal(hundredths(`${whole}.${two}`), expected);
    assert.equal(hundredths(` ${whole}.${two}${next(10)} `), expected, "a third place is cut");
    assert.equal(hundredths(`-${whole}.${two}`), -expected);
    if (cents % 10n === 0n) assert.equal(hundredths(`${whole}.${two[0]}`), expected);
    if (cents === 0n) assert.equal(hundredths(`${whole}`), expected);
  }
  assert.throws(() => hundredths("1,00"));
  assert.throws(() => hundredths(""));
});
