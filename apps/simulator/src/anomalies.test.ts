import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ANOMALY_KINDS, AnomalyPlanError, parseAnomalyPlan, randomAnomalyPlan } from "./anomalies.ts";

const refused = (text: string, field: RegExp) =>
  assert.throws(
    () => parseAnomalyPlan(text),
    (error) => error instanceof AnomalyPlanError && field.test(error.message),
  );

test("a plan file is read with its dates, each anomaly checked", () => {
  const plan = parseAnomalyPlan(
    JSON.stringify({
      anomalies: [
        {
          kind: "relay-bypass",
          target: "meter-201000000004",
          start: "2026-11-01T08:00:00+08:00",
          magnitude: 1.2,
        },
        { kind: "leak", target: "meter-78330000000002", start: 1_700_000_000_000, magnitude: 0.05 },
        {
          kind: "mis-mapped",
          target: "meter-201000000007",
          start: "2026-11-01",
          registeredUnder: "DTU00002",
        },
      ],
    }),
  );
  assert.equal(plan.anomalies.length, 3);
  assert.equal(plan.anomalies[0]!.start, Date.parse("2026-11-01T00:00:00Z"));
  assert.equal(plan.anomalies[2]!.magnitude, 0);
  assert.equal(plan.anomalies[2]!.registeredUnder, "DTU00002");
});

test("a wrong plan is refused naming the field and what it must be", () => {
  refused("{", /^plan: not JSON/);
  refused("{}", /^anomalies: must be a list/);
  refused('{"anomalies":[{"kind":"ghost","target":"m","start":0}]}', /^anomalies\[0\]\.kind: must be one of/);
  refused('{"anomalies":[{"kind":"leak","target":"","start":0,"magnitude":1}]}', /^anomalies\[0\]\.target/);
  refused(
    '{"anomalies":[{"kind":"leak","target":"m","start":"soon","magnitude":1}]}',
    /^anomalies\[0\]\.start/,
  );
  refused(
    '{"anomalies":[{"kind":"under-registering","target":"m","start":0,"magnitude":1.5}]}',
    /^anomalies\[0\]\.magnitude: must be within 0\.01\.\.1 \(share of energy not counted\)/,
  );
  refused('{"anomalies":[{"kind":"mis-mapped","target":"m","start":0}]}', /^anomalies\[0\]\.registeredUnder/);
  refused(
    '{"anomalies":[{"kind":"leak","target":"m","start":0,"magnitude":1},{"kind":"tamper","target":"m","start":0,"magnitude":0.5}]}',
    /^anomalies\[1\]\.target: m already has an anomaly/,
  );
  refused(" ".repeat(1_000_001), /^plan: larger than/);
});

const candidates = {
  electric: Array.from({ length: 200 }, (_, index) => ({ id: `e${index}`, node: `n${index % 5}` })),
  water: Array.from({ length: 100 }, (_, index) => `w${index}`),
  nodes: ["n0", "n1", "n2", "n3", "n4"],
};
const window = { from: Date.parse("2026-11-01T00:00:00Z"), to: Date.parse("2026-11-15T00:00:00Z") };

test("a random plan hits the prevalence asked for, repeats with its seed, and parses back", () => {
  const plan = randomAnomalyPlan(candidates, { seed: "7", prevalence: 0.05, ...window });
  const electric = plan.anomalies.filter((anomaly) => anomaly.target.startsWith("e"));
  const water = plan.anomalies.filter((anomaly) => anomaly.target.startsWith("w"));
  assert.equal(electric.length, 10);
  assert.equal(water.length, 5);
  assert.ok(water.every((anomaly) => anomaly.kind === "leak"));
  assert.deepEqual(randomAnomalyPlan(candidates, { seed: "7", prevalence: 0.05, ...window }), plan);
  assert.notDeepEqual(randomAnomalyPlan(candidates, { seed: "8", prevalence: 0.05, ...window }), plan);
  assert.deepEqual(parseAnomalyPlan(JSON.stringify(plan)), plan);
});

test("any random plan is valid: kinds known, starts in the window, a mis-mapped meter under another node", () => {
  fc.assert(
    fc.property(fc.string(), fc.double({ min: 0, max: 1, noNaN: true }), (seed, prevalence) => {
      const plan = randomAnomalyPlan(candidates, { seed, prevalence, ...window });
      const targets = new Set<string>();
      for (const anomaly of plan.anomalies) {
        assert.ok(ANOMALY_KINDS.includes(anomaly.kind));
        assert.ok(anomaly.start >= window.from && anomaly.start < window.to);
        assert.ok(!targets.has(anomaly.target));
        targets.add(anomaly.target);
        if (anomaly.kind === "mis-mapped") {
          const home = candidates.electric.find((meter) => meter.id === anomaly.target)?.node;
          assert.ok(anomaly.registeredUnder && anomaly.registeredUnder !== home);
        }
      }
      parseAnomalyPlan(JSON.stringify(plan));
    }),
    { numRuns: 200 },
  );
  assert.throws(
    () => randomAnomalyPlan(candidates, { seed: "x", prevalence: 2, ...window }),
    AnomalyPlanError,
  );
});
