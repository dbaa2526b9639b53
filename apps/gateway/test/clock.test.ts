import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { localTextToEpoch } from "@meterline/gateway";
import { fleetDirectory, planFleet } from "@meterline/simulator";
import { type Rig, startRig, waitUntil } from "./harness.ts";

const TZ = "Asia/Shanghai";
const FLEET = { meters: 4, dtus: 1, waterRatio: 0, prepaidRatio: 0, clockDriftRatio: 1, seed: "clock-drift" };

describe("meter clocks", () => {
  let rig: Rig;
  const meters = fleetDirectory(planFleet(FLEET));
  before(async () => {
    rig = await startRig(FLEET, { timeZone: TZ, clockToleranceMs: 60_000 });
  });
  after(() => rig.close());

  /** The meter's clock as the gateway reads it on demand: date and time, two reads. */
  async function clockOf(meterId: string): Promise<number> {
    const date = rig.commands.enqueue(meterId, { kind: "read", di: "04000101" });
    const time = rig.commands.enqueue(meterId, { kind: "read", di: "04000102" });
    const [d, t] = await Promise.all([rig.commands.waitFor(date.id), rig.commands.waitFor(time.id)]);
    // Read evidence is "name=value" (e.g. "time=14:57:19").
    const value = (stored: typeof d) => (stored.history.at(-1)?.evidence.value ?? "").split("=").at(-1) ?? "";
    return localTextToEpoch(`${value(d).slice(0, 10)} ${value(t)}`, TZ)!;
  }

  test("the daily read finds drifting clocks and one broadcast time puts the whole bus right", async () => {
    rig.gateway.pollNow();
    await waitUntil(
      () => meters.every((m) => rig.readings.latest(m.id)?.meterTime),
      10_000,
      "every clock read",
    );
    const drifts = meters.map(
      (m) => localTextToEpoch(rig.readings.latest(m.id)!.meterTime!, TZ)! - Date.now(),
    );
    assert.ok(
      drifts.some((d) => Math.abs(d) > 60_000),
      `drifts ${drifts.join(", ")}`,
    );
    await waitUntil(() => rig.gateway.stats().clockBroadcasts > 0, 5_000, "a broadcast time");
    assert.equal(rig.gateway.stats().clockBroadcasts, 1, "one frame for the bus, not one per meter");
    for (const meter of meters) {
      const off = (await clockOf(meter.id)) - Date.now();
      assert.ok(Math.abs(off) < 5_000, `${meter.address} is still ${Math.round(off / 1000)} s off`);
    }
  });

  test("another round the same day broadcasts nothing more", async () => {
    const before = rig.readings.count;
    rig.gateway.pollNow();
    await waitUntil(() => rig.readings.count >= before + meters.length, 10_000, "a second round");
    assert.equal(rig.gateway.stats().clockBroadcasts, 1);
  });
});
