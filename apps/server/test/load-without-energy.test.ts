import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created, get } from "./registry-fixtures.ts";

const DAY_MS = 24 * 3600_000;
const ZONE = "Asia/Shanghai";
const dayBefore = (n: number) => localDay(new Date(Date.now() - n * DAY_MS), ZONE);
/** A local Shanghai time as an instant (the zone keeps +08:00 all year). */
const shanghai = (day: string, time: string) => new Date(Date.parse(`${day}T${time}+08:00`));

interface Suspect {
  id: string;
  subjectId: string;
  kind: string;
  meterCode: string | null;
  figures: { name: string; value: number; unit: string; day?: string }[];
}

describe("load without energy: a meter showing power on days its register stood still", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let stopped: string;
  let counting: string;
  const list = async (query = "") =>
    (await get(server, tenant.token, `suspects/page?size=50&${query}`)).records as Suspect[];

  /**
   * Two meters polled by the gateway at 09:00 and 21:00 on each of the last four days: both show
   * a load (1.2 kW in the morning, 2.05 kW in the evening); one register counts 6 kWh a day, the
   * other stands still at 500.00.
   */
  async function poll() {
    const sink = new DbReadingsSink(server.db, ZONE);
    const meters = [
      { id: stopped, address: "100000000777", total: 500, perPoll: 0 },
      { id: counting, address: "100000000778", total: 800, perPoll: 3 },
    ];
    for (let k = 4; k >= 1; k--) {
      for (const [time, power] of [
        ["09:00:00", "1.2"],
        ["21:00:00", "2.05"],
      ] as const) {
        for (const meter of meters) {
          meter.total += meter.perPoll;
          await sink.record({
            meterId: meter.id,
            address: meter.address,
            at: shanghai(dayBefore(k), time),
            energy: { total: meter.total.toFixed(2), tariffs: [] },
            activePower: power,
            relay: "closed",
            missing: [],
          });
        }
      }
    }
  }

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "功率稽查园区");
    stopped = await created(server, tenant.token, "meter/save", { productCode: "100000000777" });
    counting = await created(server, tenant.token, "meter/save", { productCode: "100000000778" });
    await poll();
    const swept = await server.call("POST", "/api/blade-pms/suspects/sweep", tenant.token, {});
    assert.equal(swept.statusCode, 200, swept.body);
  });
  after(() => server.close());

  test("the readings keep each meter's highest power per day beside its daily usage", async () => {
    const rows = await server.db.query<{ meter_id: string; day: string; max_power: string; usage: string }>(
      `select p.meter_id::text as meter_id, to_char(p.day_date, 'YYYY-MM-DD') as day, p.max_power::text as max_power,
              d.usage::text as usage
         from pms_data_day_power p
         join pms_data_daily d on d.tenant_id = p.tenant_id and d.meter_id = p.meter_id and d.day_date = p.day_date
        where p.tenant_id = $1 order by p.meter_id, p.day_date`,
      [tenant.tenantId],
    );
    assert.equal(rows.length, 8);
    assert.ok(rows.every((row) => Number(row.max_power) === 2.05));
    const usage = (meterId: string) => rows.filter((r) => r.meter_id === meterId).map((r) => Number(r.usage));
    assert.deepEqual(usage(stopped), [0, 0, 0, 0]);
    // The first day counts from its first read; the others from the day before's last.
    assert.deepEqual(usage(counting), [3, 6, 6, 6]);
  });

  test("the still register under load is a suspect with its days, powers and energies; the counting one is not", async () => {
    const suspects = await list("kind=load-without-energy");
    assert.deepEqual(
      suspects.map((s) => [s.subjectId, s.meterCode]),
      [[stopped, "100000000777"]],
    );
    const [suspect] = suspects;
    assert.deepEqual(suspect!.figures.slice(0, 2), [
      { name: "days with load, no energy", value: 4, unit: "days" },
      { name: "highest power", value: 2.05, unit: "kW" },
    ]);
    const days = [4, 3, 2, 1].map(dayBefore);
    assert.deepEqual(
      suspect!.figures.slice(2).map((f) => [f.day, f.name, f.value]),
      days.flatMap((day) => [
        [day, "highest power", 2.05],
        [day, "energy counted", 0],
      ]),
    );
    assert.ok(!(await list()).some((s) => s.subjectId === counting), "the counting meter is not suspected");
    const detail = await get(server, tenant.token, `suspects/detail?id=${suspect!.id}`);
    assert.equal(detail.kind, "load-without-energy");
    // The chart draws what was judged: each day's usage row and highest power.
    assert.deepEqual(
      (detail.series as { value: string | null }[]).slice(-5).map((d) => d.value),
      [null, "0.00", "0.00", "0.00", "0.00"],
    );
    assert.deepEqual(
      (detail.power as { value: string | null }[]).slice(-5).map((d) => d.value),
      [null, "2.05", "2.05", "2.05", "2.05"],
    );
  });

  test("a sweep again keeps the one suspect; the kind is a filter the list accepts", async () => {
    assert.equal(
      (await server.call("POST", "/api/blade-pms/suspects/sweep", tenant.token, {})).statusCode,
      200,
    );
    assert.equal((await list("kind=load-without-energy")).length, 1);
    const bad = await server.call(
      "GET",
      "/api/blade-pms/suspects/page?kind=load-without-power",
      tenant.token,
    );
    assert.equal(bad.statusCode, 400, bad.body);
  });
});
