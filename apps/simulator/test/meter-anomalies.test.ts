import assert from "node:assert/strict";
import { test } from "node:test";
import { ElectricMeter, type MeterAnomaly } from "../src/electric-meter.ts";
import { DEFAULT_SLOTS } from "../src/tariff.ts";
import { WaterMeter } from "../src/water-meter.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 2, 16); // 00:00 local (UTC+8)

function electric(anomaly?: MeterAnomaly): ElectricMeter {
  const meter = new ElectricMeter({
    address: "201000000001",
    version: "2007",
    localPrepaid: false,
    profile: { mean: 1000, seed: "anomaly" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 8 * HOUR,
    runningSince: T0,
    ...(anomaly ? { anomaly } : {}),
  });
  meter.advance(T0);
  return meter;
}

test("an under-registering meter counts (1 − m) of its energy from the start on, and shows less power", () => {
  const honest = electric();
  const shunted = electric({ kind: "under-registering", start: T0 + 24 * HOUR, magnitude: 0.5 });
  for (const meter of [honest, shunted]) meter.advance(T0 + 24 * HOUR);
  assert.equal(shunted.shownTotal(), honest.shownTotal());
  const before = honest.shownTotal();
  for (const meter of [honest, shunted]) meter.advance(T0 + 48 * HOUR);
  const share = (shunted.shownTotal() - before) / (honest.shownTotal() - before);
  assert.ok(Math.abs(share - 0.5) < 0.01, `counted ${share}`);
  // Power in 0.1 W: half of the honest meter's, give or take the profile's whole watts.
  const gap = honest.activePower(T0 + 30 * HOUR) - shunted.activePower(T0 + 30 * HOUR) * 2n;
  assert.ok(gap >= -20n && gap <= 20n, `${gap}`);
  assert.ok(shunted.activePower(T0 + 30 * HOUR) > 0n);
});

test("a bridged relay keeps counting while tripped; a tamper opens the cover", () => {
  const bypassed = electric({ kind: "relay-bypass", start: T0, magnitude: 1.5 });
  const honest = electric();
  for (const meter of [bypassed, honest]) {
    meter.relayOpen = true;
    meter.advance(T0 + 2 * HOUR);
  }
  assert.equal(honest.shownTotal(), 0);
  assert.equal(bypassed.shownTotal(), 300); // 1.5 kW for 2 h: 3.00 kWh
  assert.equal(bypassed.activePower(T0 + HOUR), 15_000n);
  const tampered = electric({ kind: "tamper", start: T0 + HOUR, magnitude: 0.3 });
  assert.equal(tampered.coverOpenCount, 0);
  tampered.advance(T0 + 2 * HOUR);
  assert.equal(tampered.coverOpenCount, 1);
  assert.equal(tampered.conditions.coverOpen, true);
});

test("a leak after a water meter adds its m³/h to the register while the valve is open", () => {
  const water = (anomaly?: MeterAnomaly) => {
    const meter = new WaterMeter({
      address: "78330000000001",
      meterType: 0x10,
      diOrder: "big-endian",
      profile: { mean: 20, seed: "w" },
      localOffsetMs: 8 * HOUR,
      valveTravelMs: 0,
      runningSince: T0,
      ...(anomaly ? { anomaly } : {}),
    });
    meter.advance(T0);
    return meter;
  };
  const dry = water();
  const leaking = water({ kind: "leak", start: T0 + HOUR, magnitude: 0.25 });
  for (const meter of [dry, leaking]) meter.advance(T0 + 5 * HOUR);
  assert.equal(leaking.volume.steps[0]! - dry.volume.steps[0]!, 100); // 4 h × 0.25 m³/h
  for (const meter of [dry, leaking]) {
    meter.command("closed", T0 + 5 * HOUR);
    meter.advance(T0 + 9 * HOUR);
  }
  assert.equal(leaking.volume.steps[0]! - dry.volume.steps[0]!, 100);
});
