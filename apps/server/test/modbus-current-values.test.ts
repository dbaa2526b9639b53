import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/** What a Modbus meter's model lets the gateway read besides energy lands in its current values. */
describe("a Modbus meter's voltage, current and power in its current values", () => {
  let server: TestServer;
  let sink: DbReadingsSink;
  const BASE = 7_300_000;
  const meterId = String(BASE);
  const START = Date.parse("2026-11-02T00:15:00Z");
  const reading = (minutes: number, values: Partial<MeterReading>): MeterReading => ({
    meterId,
    address: "1",
    at: new Date(START + minutes * 60_000),
    energy: { total: (1000 + minutes / 100).toFixed(2), tariffs: [] },
    missing: [],
    ...values,
  });
  const current = async () => {
    const [row] = await server.db.query<{
      voltage: string | null;
      current: string | null;
      active_power: string;
    }>(
      `select voltage::text, current::text, active_power::text from pms_meter_current_data
        where meter_id = $1 and energy_type = 1`,
      [meterId],
    );
    return row;
  };

  before(async () => {
    server = await startTestServer();
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    await seedPricedMeters(server.db, {
      base: BASE,
      meters: 1,
      priced: 1,
      deposit: 100_000n,
      pricedUpTo: new Date(START - 15 * 60_000),
    });
  });
  after(async () => server?.close());

  test("stored exactly as read; a reading without them keeps the last ones", async () => {
    await sink.record(reading(15, { voltage: "220.5", current: "5.12", activePower: "1.126" }));
    assert.deepEqual(await current(), { voltage: "220.500", current: "5.120", active_power: "1.1260" });
    await sink.record(reading(30, { activePower: "0.800" }));
    assert.deepEqual(await current(), { voltage: "220.500", current: "5.120", active_power: "0.8000" });
    // More places than the column keeps are cut, never rounded up.
    await sink.record(reading(45, { voltage: "230.1239", current: "0.0005" }));
    assert.deepEqual(await current(), { voltage: "230.123", current: "0.000", active_power: "0.8000" });
  });
});
