import assert from "node:assert/strict";
import { test } from "node:test";
import { type ElectricSample, noEnergyUnderLoad, relayBypass } from "./electric.ts";

const HOUR = 3_600_000;

test("energy counted between two polls that read the relay tripped is a bypass, with its kWh", () => {
  const samples: ElectricSample[] = [
    { at: 0, energy: 10_000n, relay: "closed" },
    { at: HOUR, energy: 10_050n, relay: "tripped" },
    { at: 2 * HOUR, energy: 10_130n, relay: "tripped" },
    { at: 3 * HOUR, energy: 10_250n, relay: "tripped" },
  ];
  const found = relayBypass("m1", samples);
  assert.ok(found);
  assert.equal(found.kind, "relay-bypass");
  assert.deepEqual(found.figures[0], { name: "energy while tripped", value: 2, unit: "kWh" });
  assert.equal(found.from, HOUR);
  assert.equal(found.to, 3 * HOUR);
  assert.ok(found.score > 0.95);
  // The energy of the hour before the trip was read back is not counted against it.
  const honest = samples.map((sample, index) => (index >= 1 ? { ...sample, energy: 10_050n } : sample));
  assert.equal(relayBypass("m1", honest), undefined);
  // The register's last digit moving once is not a bypass.
  const creep = [samples[1]!, { ...samples[2]!, energy: 10_052n }];
  assert.equal(relayBypass("m1", creep), undefined);
});

test("a register standing still for hours under load is energy drawn but not counted", () => {
  const samples: ElectricSample[] = [];
  for (let hour = 0; hour <= 8; hour++) {
    // Counting normally until 02:00, then still while 1.5 kW keeps showing.
    samples.push({ at: hour * HOUR, energy: 20_000n + BigInt(Math.min(hour, 2) * 150), powerKw: 1.5 });
  }
  const found = noEnergyUnderLoad("m2", samples);
  assert.ok(found);
  assert.equal(found.from, 2 * HOUR);
  assert.equal(found.to, 8 * HOUR);
  assert.deepEqual(found.figures[0], { name: "energy drawn, not counted", value: 9, unit: "kWh" });
  // Current only: 6.8 A at 220 V is the same load.
  const byCurrent = samples.map(({ powerKw: _power, ...rest }) => ({ ...rest, currentA: 6.8 }));
  assert.ok(noEnergyUnderLoad("m2", byCurrent));
  // A room on standby (50 W) with a still register is normal.
  assert.equal(
    noEnergyUnderLoad(
      "m2",
      samples.map((sample) => ({ ...sample, powerKw: 0.05 })),
    ),
    undefined,
  );
  // Two hours still under load are not yet enough.
  assert.equal(noEnergyUnderLoad("m2", samples.slice(0, 5)), undefined);
});
