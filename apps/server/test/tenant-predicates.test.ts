import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import type { Db, Queryable } from "../src/db/client.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/**
 * Every statement of the readings hot path (storing a batch, pricing it, judging its alarms) is
 * planned by EXPLAIN, and every scan of a tenant table in the plan must be limited by its tenant:
 * by its own condition on tenant_id, or by a join on tenant_id above it. That is what lets the
 * tenant tables be distributed by tenant (docs/scale.md, Citus) with each statement on one shard,
 * and it is the isolation rule besides. A new statement without it fails here.
 */

/** Statements known to scan a tenant table without its tenant, and why (each a task of its own). */
const KNOWN: readonly { statement: RegExp; table: string; why: string }[] = [
  {
    statement: /^select m\.id::text as id, m\.tenant_id, m\.energy_type, m\.product_code/,
    table: "pms_meter|pms_water",
    why: "the gateway names a reading's meter by id alone; the meter's row is where its tenant comes from",
  },
];

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [condition: string]: unknown;
}

const CONDITIONS = [
  "Index Cond",
  "Filter",
  "Recheck Cond",
  "TID Cond",
  "Hash Cond",
  "Merge Cond",
  "Join Filter",
];
const conditionsOf = (node: PlanNode) =>
  CONDITIONS.map((key) => node[key])
    .filter((value): value is string => typeof value === "string")
    .join(" ");

/** The tenant tables a plan scans without a tenant condition on them. */
function unlimitedScans(
  node: PlanNode,
  tenantTables: ReadonlySet<string>,
  above: readonly string[] = [],
): string[] {
  const found: string[] = [];
  const relation = node["Relation Name"];
  if (relation && tenantTables.has(relation) && node["Node Type"] !== "ModifyTable") {
    const own = conditionsOf(node);
    // A partition's scan is aliased as its parent's with a suffix (d_1, d_2…); conditions name the parent's.
    const aliases = [node.Alias ?? relation, (node.Alias ?? relation).replace(/_\d+$/, "")];
    const joined = above.some((conditions) =>
      aliases.some((alias) => conditions.includes(`${alias}.tenant_id`)),
    );
    if (!own.includes("tenant_id") && !joined) found.push(relation);
  }
  const next = [...above, conditionsOf(node)];
  for (const child of node.Plans ?? []) found.push(...unlimitedScans(child, tenantTables, next));
  return found;
}

/** The database handle, keeping every statement it is given with its parameters. */
function recording(db: Db): { db: Db; statements: Map<string, readonly unknown[]> } {
  const statements = new Map<string, readonly unknown[]>();
  const keep =
    (q: Queryable) =>
    <T>(sql: string, params?: readonly unknown[]) => {
      if (!statements.has(sql)) statements.set(sql, params ?? []);
      return q.query<T>(sql, params);
    };
  const wrapped: Db = Object.create(db) as Db;
  wrapped.query = keep(db) as Db["query"];
  wrapped.transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
    db.transaction((tx) => fn({ query: keep(tx) as Queryable["query"] }));
  return { db: wrapped, statements };
}

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

    const tenantTables = new Set(
      (
        await server.db.query<{ table_name: string }>(
          `select distinct table_name from information_schema.columns
            where table_schema = current_schema() and column_name = 'tenant_id'`,
        )
      ).map((r) => r.table_name),
    );
    const failures: string[] = [];
    let planned = 0;
    for (const [sql, params] of statements) {
      if (!/^\s*(select|insert|update|delete|with)\b/i.test(sql)) continue;
      const [row] = await server.db.query<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(
        `explain (format json) ${sql}`,
        params,
      );
      const json = row!["QUERY PLAN"];
      const plan = (typeof json === "string" ? JSON.parse(json) : json)[0].Plan as PlanNode;
      planned++;
      const text = sql.replace(/\s+/g, " ").trim();
      for (const table of new Set(unlimitedScans(plan, tenantTables))) {
        const parent = table.replace(/_(p\d{6}|default)$/, "");
        const known = KNOWN.find((k) => k.statement.test(text) && k.table.split("|").includes(parent));
        if (!known) failures.push(`${parent} in: ${text.slice(0, 160)}`);
      }
    }
    assert.ok(planned >= 15, `${planned} statements planned`);
    assert.deepEqual(failures, [], "every scan of a tenant table is limited by its tenant");
  });
});
