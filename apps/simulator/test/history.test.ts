import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ElectricMeter,
  ManualClock,
  planFleet,
  registerHistory,
  startFleet,
  startingSteps,
  type WaterMeter,
} from "@meterline/simulator";

const DAY = 86_400_000;

test("a meter's history ends where the running fleet starts, and the running meter goes on from it", async () => {
  const options = { meters: 12, dtus: 2, rolloverRatio: 0.2, clockDriftRatio: 0.2, seed: "history" };
  const plan = planFleet(options);
  const start = Date.UTC(2026, 10, 20, 3, 17, 42, 123);
  const times = Array.from({ length: 8 * 4 }, (_, i) => start - 8 * DAY + i * 6 * 3_600_000);
  const fleet = await startFleet({ ...options, runningSince: start, clock: new ManualClock(start) });
  try {
    for (const planned of plan.meters) {
      const history = registerHistory(planned, [...times, start], {
        seed: "history",
        utcOffsetMinutes: 480,
        startsAt: start,
      });
      assert.deepEqual(history.at(-1), startingSteps(planned), `${planned.address} ends at its start`);
      // Registers only grow (a rolling-over meter stays below its top until after the start).
      for (let i = 1; i < history.length; i++)
        for (const [band, value] of history[i]!.entries())
          assert.ok(value >= history[i - 1]![band]!, `${planned.address} band ${band} never goes back`);
      const total = (steps: number[]) => steps.reduce((a, b) => a + b, 0);
      assert.ok(total(history.at(-1)!) - total(history[0]!) > 0, "it was used");
      const meter = fleet.meter(planned.address)!;
      meter.advance(start + 3_600_000);
      const shown =
        meter instanceof ElectricMeter ? meter.shownTariffs() : [(meter as WaterMeter).shownVolume()];
      const used = shown.map((value, band) => value - startingSteps(planned)[band]!);
      assert.ok(
        used.every((u) => u >= 0) && used.some((u) => u > 0) && total(used) < 500,
        `${planned.address}: ${used}`,
      );
    }
  } finally {
    await fleet.close();
  }
});
