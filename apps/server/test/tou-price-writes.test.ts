import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import { dlt645 } from "@meterline/protocols";
import {
  type ElectricMeter,
  type FleetHandle,
  planFleet,
  plannedSecret,
  startFleet,
} from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const PLAN = { meters: 3, dtus: 1, waterRatio: 0, prepaidRatio: 0.5, seed: "meter-writes" } as const;
const pms = "/api/blade-pms";
const HOUR = 3_600_000;

/** Night valley across midnight, peak by day: the meter needs 00:00 valley, 07:00 peak, 22:00 valley. */
const NIGHT_AND_DAY = [
  { start: "07:00", end: "22:00", band: "peak" },
  { start: "22:00", end: "07:00", band: "low" },
];

describe("time-of-use price writes: the meter gets when each band applies, and charges by it", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  const plan = planFleet(PLAN);
  const prepaid = plan.meters.find((m) => m.localPrepaid)!;
  let meterId: string;
  let scheme: string;

  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, admin, body);
  const sim = () => fleet.meter(prepaid.address) as ElectricMeter;
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const settledBatch = (batchId: string) =>
    waitFor(`batch ${batchId} settled`, async () => {
      const rows = await server.db.query<{ state: string; payload: string; evidence: string | null }>(
        "select state, payload, evidence from pms_meter_command where batch_id = $1 order by id",
        [batchId],
      );
      return rows.every((r) => r.state === "success" || r.state === "fail") ? rows : undefined;
    });
  const commandCount = async () =>
    (await server.db.query<{ n: number }>("select count(*)::int as n from pms_meter_command"))[0]!.n;
  const setPeriods = async (periods: unknown[]) => {
    const edit = await post("chargingscheme/submit", { id: scheme, touPeriods: JSON.stringify(periods) });
    assert.equal(edit.statusCode, 200, edit.body);
  };

  before(async () => {
    assert.ok(prepaid, "the plan has a local-prepaid meter");
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "分时园区", areaType: 1 });
    const owner = await created(server, admin, "owner/submit", { ownerName: "赵六", ownerCode: "TOU1" });
    scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "分时电价",
      energyType: 1,
      priceMode: 3,
      tipPrice: "1.5000",
      peakPrice: "1.0000",
      peacePrice: "0.6000",
      lowPrice: "0.2000",
      touPeriods: JSON.stringify(NIGHT_AND_DAY),
    });
    const alarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "分时告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
    });
    const room = await created(server, admin, "room/save", { areaId: area, roomName: "101" });
    await created(server, admin, "ownerroom/submit", { ownerId: owner, roomId: room });
    meterId = await created(server, admin, "meter/save", {
      productCode: prepaid.address,
      collectorId: collector,
      controlStatus: 0,
      chargingSchemeId: scheme,
      alarmSchemeId: alarm,
    });
    await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
    metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      env: {
        GATEWAY_PORT: "0",
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_REQUEST_TIMEOUT_MS: "700",
        GATEWAY_TIMEOUT_RECHECK_MS: "2000",
      },
    });
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address() });
    await waitFor("the meter's purchase count", async () => {
      const [row] = await server.db.query<{ purchase_count: number }>(
        "select purchase_count from pms_meter_purchase_count where meter_id = $1",
        [meterId],
      );
      return row ? row.purchase_count : undefined;
    });
    const opened = await post("message/openAccount", { meterId, deposit: "500" });
    assert.equal(opened.statusCode, 200, opened.body);
    await waitFor("the opening writes", async () => {
      const [row] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from pms_meter_command where state in ('queued', 'sent', 'timeout')",
      );
      return row!.n === 0 ? true : undefined;
    });
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    await server?.close();
  });

  test("opening the account wrote the band prices and the day table, the night valley split at midnight", async () => {
    const meter = sim();
    assert.deepEqual(meter.prices, [15_000, 10_000, 6_000, 2_000]);
    assert.deepEqual(meter.tou.dayTables[0], [
      { start: 0, tariff: 4 },
      { start: 7 * 60, tariff: 2 },
      { start: 22 * 60, tariff: 4 },
    ]);
    assert.deepEqual(meter.tou.zones, [{ month: 1, day: 1, table: 1 }]);
    assert.deepEqual(meter.tou.counts, { zones: 1, dayTables: 1, periods: 3, tariffs: 4, holidays: 0 });
    const failed = await server.db.query("select id from pms_meter_command where state <> 'success'");
    assert.deepEqual(failed, []);
  });

  test("writePriceBatch writes new periods, each verified by reading the table back; a lost reply is settled by read-back", async () => {
    const meter = sim();
    // 00:00–12:00 peak, 12:00–19:00 flat, 19:00–21:00 tip, 21:00–24:00 valley.
    await setPeriods([
      { start: "00:00", end: "12:00", band: "peak" },
      { start: "12:00", end: "19:00", band: "peace" },
      { start: "19:00", end: "21:00", band: "tip" },
      { start: "21:00", end: "24:00", band: "low" },
    ]);
    const writes = meter.counters.writes;
    // The batch's first write (tariff price 1) is executed, but its reply is lost.
    fleet.injectFault(prepaid.address, "noReply");
    const res = await post("message/writePriceBatch", { meterIds: meterId });
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json().data;
    assert.equal(
      outcome.queued,
      12,
      "4 prices, the ladder cleared (2), 4 counts, the zone table, day table 1",
    );
    const rows = await settledBatch(outcome.batchId);
    for (const row of rows) assert.equal(row.state, "success", row.evidence ?? "");
    const payloads = rows.map((r) => JSON.parse(r.payload) as { di: string; value: string });
    assert.deepEqual(payloads.slice(6), [
      { di: "04000201", value: "1" },
      { di: "04000202", value: "1" },
      { di: "04000203", value: "4" },
      { di: "04000204", value: "4" },
      { di: "04010000", value: "010101" },
      { di: "04010001", value: "000002,120003,190001,210004" },
    ]);
    const lost = JSON.parse(rows[0]!.evidence!);
    assert.match(lost.detail, /no reply; read-back shows the command took effect/);
    const table = JSON.parse(rows[11]!.evidence!);
    assert.match(table.detail, /acknowledged and verified/);
    assert.deepEqual(
      [table.readBack.item, table.readBack.value],
      ["register", "000002,120003,190001,210004"],
    );
    assert.equal(meter.counters.writes, writes + 12, "each write sent exactly once");
    assert.deepEqual(dlt645.dayTableValue(meter.tou.dayTables[0]!), "000002,120003,190001,210004");
    assert.equal(meter.tou.counts.periods, 4);

    // The operation record shows the table writes as price writes.
    const kinds = await server.db.query<{ n: number }>(
      `select count(*)::int as n from pms_meter_command t where t.batch_id = $1 and
         ((t.payload::jsonb ->> 'di') like '040002%' or (t.payload::jsonb ->> 'di') like '0401%')`,
      [outcome.batchId],
    );
    assert.equal(kinds[0]!.n, 6);
  });

  test("usage in the peak and the valley is charged by the meter itself at the written band prices", async () => {
    const meter = sim();
    // Times the meter's own clock shows as 06:00 (peak) and 22:30 (valley) today.
    const now = Date.now();
    const local = meter.localNow(now);
    const midnight = now - (local % (24 * HOUR));
    const morning = midnight + 6 * HOUR;
    const night = midnight + 22.5 * HOUR;
    const balance = meter.balanceFen;
    const carried = meter.microYuan;
    const peakBefore = meter.energy.steps[1]!;
    const valleyBefore = meter.energy.steps[3]!;
    // 3 kWh in the peak at 1.0000 and 5 kWh in the valley at 0.2000: 3.00 + 1.00 = 4.00 yuan.
    assert.equal(meter.useAt(300, morning), 1, "06:00 is in the peak");
    assert.equal(meter.useAt(500, night), 3, "22:30 is in the valley");
    assert.equal(meter.energy.steps[1]! - peakBefore, 300);
    assert.equal(meter.energy.steps[3]! - valleyBefore, 500);
    assert.equal(balance - meter.balanceFen, Math.floor((carried + 300 * 10_000 + 500 * 2_000) / 10_000));
    assert.equal(balance - meter.balanceFen, 400);
  });

  test("periods a meter cannot hold are refused before anything is queued, naming the field", async () => {
    // 14 hourly periods from 01:00, the last across midnight: 15 entries in a meter's day table.
    await setPeriods(
      Array.from({ length: 14 }, (_, i) => ({
        start: `${String(1 + i).padStart(2, "0")}:00`,
        end: i === 13 ? "01:00" : `${String(2 + i).padStart(2, "0")}:00`,
        band: i % 2 === 0 ? "peak" : "low",
      })),
    );
    const before = await commandCount();
    const tables = sim().tou.dayTables[0];
    const res = await post("message/writePriceBatch", { meterIds: meterId });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, /^touPeriods: 表计每日最多 14 个时段/);
    assert.equal(await commandCount(), before);
    assert.equal(sim().tou.dayTables[0], tables);
  });
});
