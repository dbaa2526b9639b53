import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { type KnownScan, recording, scansWithoutTenant } from "./plan-tenant.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/**
 * Every statement of the readings hot path (storing a batch, pricing it, judging its alarms) is
 * planned by EXPLAIN, and every scan of a tenant table in the plan must be limited by its tenant:
 * by its own condition on tenant_id, or by a join on tenant_id above it. That is what lets the
 * tenant tables be distributed by tenant (docs/scale.md, Citus) with each statement on one shard,
 * and it is the isolation rule besides. A new statement without it fails here.
 */

/** Statements known to scan a tenant table without its tenant, and why (each a task of its own). */
const KNOWN: readonly KnownScan[] = [
  {
    statement: /^select m\.id::text as id, m\.tenant_id, m\.energy_type, m\.product_code/,
    table: "pms_meter|pms_water",
    why: "the gateway names a reading's meter by id alone; the meter's row is where its tenant comes from",
  },
];

describe("the readings hot path names the tenant in every statement", () => {
  let server: TestServer;
  const TENANT = "000000";
  const BASE = 7_200_000;
  const METERS = 20;
  const START = Date.parse("2026-11-03T00:15:00Z");

  before(async () => {
    server = await startTestServer();
    // Ten of the meters priced by the server, with a balance under the alarm scheme's lines, so the
    // batch prices, books charges, moves owners, raises alarms and queues cuts.
    await seedPricedMeters(server.db, {
      base: BASE,
      meters: METERS,
      priced: 10,
      deposit: 1000n,
      pricedUpTo: new Date(START - 900_000),
      alarm: [999, 998, 997],
    });
    await server.db.query(
      `insert into pms_water (id, tenant_id, product_code, protocol, online_status)
       select g + 100, $1, lpad(g::text, 14, '0'), 'cjt188-2004', 1 from generate_series($2::bigint, $3) g`,
      [TENANT, BASE, BASE + METERS - 1],
    );
  });
  after(async () => server?.close());

  test("storing, pricing and judging a batch of readings", async () => {
    const { db, statements } = recording(server.db);
    const sink = new DbReadingsSink(db, "Asia/Shanghai");
    const reading = (id: number, round: number): MeterReading => ({
      meterId: String(id),
      address: String(id).padStart(12, "0"),
      at: new Date(START + round * 900_000),
      energy: { total: (1000 + round).toFixed(2), tariffs: ["1.00", "2.00", "3.00", "4.00"] },
      relay: "closed",
      activePower: "0.5000",
      statusWord1: "0000",
      missing: [],
      ...(round === 1
        ? { dailyFrozen: { time: "2026-11-03 00:00:00", energy: { total: "1000.00", tariffs: [] } } }
        : {}),
    });
    const water = (id: number, round: number): MeterReading => ({
      meterId: String(id + 100),
      address: String(id).padStart(14, "0"),
      at: new Date(START + round * 900_000),
      volume: (10 + round).toFixed(2),
      valve: "open",
      batteryLow: false,
      missing: [],
    });
    for (let round = 0; round < 3; round++) {
      const ids = Array.from({ length: METERS }, (_, i) => BASE + i);
      await Promise.all([
        ...ids.map((id) => sink.record(reading(id, round))),
        ...ids.map((id) => sink.record(water(id, round))),
      ]);
    }
    // One reading alone too (the path a quiet site takes), and one the database refuses (the fallback).
    await sink.record(reading(BASE, 5));
    await Promise.allSettled([
      sink.record(reading(BASE + 1, 6)),
      sink.record({ ...reading(BASE + 2, 6), energy: { total: "99999999999999999999.00", tariffs: [] } }),
    ]);
    const [charged] = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_ledger where entry_type = 6 and account_id between $1 and $2",
      [BASE, BASE + 9],
    );
    assert.ok(Number(charged!.n) >= 20, "the batch was priced (the path under test ran)");

    const { failures, planned } = await scansWithoutTenant(server.db, statements, KNOWN);
    assert.ok(planned >= 15, `${planned} statements planned`);
    assert.deepEqual(failures, [], "every scan of a tenant table is limited by its tenant");
  });
});
