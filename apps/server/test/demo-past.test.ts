import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import { ElectricMeter, ManualClock, planFleet, startFleet, type WaterMeter } from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import {
  DEMO_698_FLEET,
  DEMO_FLEET,
  DEMO_TENANT_ID,
  demoAnomalies,
  demoCasesAt,
  demoConditions,
  seedDemoSite,
} from "../src/demo/demo-site.ts";
import { nodesLoss } from "../src/modules/line-loss/line-loss.service.ts";
import { startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { closeDay } from "../src/modules/money/daily-close.ts";
import { suspectsPage } from "../src/modules/suspects/suspects.service.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";
import { get } from "./registry-fixtures.ts";

const DAY = 86_400_000;
/** The demo's meters: the DTU fleet's and the 698 building's behind its concentrator. */
const METERS = DEMO_FLEET.meters + DEMO_698_FLEET.meters;
const localDay = (at: number) => new Date(at + 8 * 3_600_000).toISOString().slice(0, 10);

describe("the demo site's 60 days of past", () => {
  let server: TestServer;
  let token: string;
  let startsAt: number;
  let seedMs: number;
  before(async () => {
    server = await startTestServer();
    const started = performance.now();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    seedMs = performance.now() - started;
    token = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
    const [tenant] = await server.db.query<{ since: Date | string }>(
      "select create_time as since from sys_tenant where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    startsAt = new Date(tenant!.since).getTime();
  });
  after(() => server.close());
  const daysBack = (n: number) => localDay(startsAt - n * DAY);
  const owners = async () =>
    (await get(server, token, "ownerRecharge/page?size=500")).records as {
      accounts: {
        id: string;
        productCode: string;
        balance: string;
        alarmLevel: number;
        arrearsStatus: number;
        controlStatus: number;
      }[];
    }[];

  test("every meter has an account opened with a deposit; some are low, one is in arrears", async () => {
    console.log(`seeding the demo site with its past took ${Math.round(seedMs)} ms on ${server.db.kind}`);
    const accounts = (await owners()).flatMap((o) => o.accounts);
    assert.equal(accounts.length, METERS);
    const levels = accounts.map((a) => a.alarmLevel);
    assert.ok(levels.filter((l) => l === 1).length >= 2, `low: ${levels}`);
    assert.ok(levels.filter((l) => l === 2).length >= 1, `severely low: ${levels}`);
    assert.equal(accounts.filter((a) => a.arrearsStatus === 1).length, 1);
    assert.ok(levels.filter((l) => l === 0).length > 150);
    const openings = await get(server, token, "dataopenaccount/page?size=1");
    assert.equal(openings.total, METERS);
    assert.equal(openings.records[0].openTime.slice(0, 10), daysBack(60));
    assert.ok(Number(openings.records[0].deposit) > 0);
  });

  test("all 60 days are closed: a statement chains each day's balances and ends at the balance the day before today", async () => {
    const account = (await owners())
      .flatMap((o) => o.accounts)
      .find((a) => a.controlStatus === 1 && a.alarmLevel === 0)!;
    const statement = await get(
      server,
      token,
      `account/statement?accountId=${account.id}&startDay=${daysBack(60)}&endDay=${daysBack(1)}`,
    );
    assert.equal(statement.days.length, 60);
    assert.equal(statement.days[0].day, daysBack(60));
    assert.equal(statement.days[0].openingBalance, "0.00", "opened that day");
    for (let i = 1; i < 60; i++)
      assert.equal(statement.days[i].openingBalance, statement.days[i - 1].closingBalance);
    assert.ok(
      statement.days.every((d: { usage: string }) => Number(d.usage) > 0),
      "usage every day",
    );
    assert.ok(statement.recharges.length > 0, "recharged over the period");
    assert.ok(Number(statement.totals.usageCharge) > 0);
  });

  test("its closed days are exactly what the daily close writes from the ledger", async () => {
    for (const day of [daysBack(60), daysBack(33), daysBack(1)]) {
      const rows = () =>
        server.db.query(
          `select account_id::text, opening_balance::text, usage::text, usage_charge::text, fee::text, credit::text,
                  debit::text, closing_balance::text, entries from pms_account_day where day = $1::date order by account_id`,
          [day],
        );
      const seeded = await rows();
      assert.equal(seeded.length, METERS, day);
      await server.db.query("delete from pms_account_day where day = $1::date", [day]);
      assert.equal(await closeDay(server.db, day, "Asia/Shanghai"), METERS);
      assert.deepEqual(await rows(), seeded, day);
    }
  });

  test("the home page's pies have every recharge type and payment method in every period; the ledger agrees", async () => {
    for (const dateType of [1, 2, 3]) {
      const types = await get(server, token, `homepage/rechargeTypeRatio?dateType=${dateType}`);
      assert.deepEqual(
        types
          .filter((t: { amount: string }) => Number(t.amount) > 0)
          .map((t: { rechargeType: number }) => t.rechargeType),
        [1, 2, 3, 4],
        `dateType ${dateType}`,
      );
      const methods = await get(server, token, `homepage/paymentMethodRatio?dateType=${dateType}`);
      assert.deepEqual(
        methods
          .filter((m: { amount: string }) => Number(m.amount) > 0)
          .map((m: { paymentMethod: number }) => m.paymentMethod),
        [0, 1, 2, 3, 4, 5],
        `dateType ${dateType}`,
      );
    }
    const check = await get(server, token, "ledger/check");
    assert.deepEqual(check, { consistent: true, mismatches: [] });
    // Every recharge taken is money received: the payments sum to the recharges, all paid.
    const recharges = await get(server, token, "datarecharge/page?rechargeType=1&size=1");
    const payments = await get(server, token, "payment/list?size=1");
    assert.ok(payments.total > 100, `${payments.total} payments`);
    assert.equal(payments.total, recharges.total);
    assert.deepEqual(payments.totals, { paid: recharges.totals.credit, unpaid: "0.00", failed: "0.00" });
  });

  test("the usage trends show 60 days of use, electric and water", async () => {
    for (const path of ["datadailydd", "waterdatadaily"]) {
      const days = await get(server, token, `${path}/trend?from=${daysBack(60)}&to=${daysBack(1)}`);
      assert.equal(days.length, 60, path);
      assert.ok(
        days.every((d: { usage: string }) => Number(d.usage) > 0),
        `${path}: ${JSON.stringify(days.slice(0, 3))}`,
      );
    }
    // The reading log's page counts only a bounded way past itself: count the table here.
    const page = await get(server, token, "dataread/page?size=1");
    assert.equal(page.totalExact, false, "a log this long is counted only up to its bound");
    const [reads] = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_data_read where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    // Every 6 hours over the last week, at midnight and 18:00 before that.
    assert.ok(Number(reads!.n) >= 140 * (53 * 2 + 7 * 4), `reads: ${reads!.n}`);
  });

  test("each building is a metering node whose master counts its rooms, common area and a few per cent of loss", async () => {
    const yesterday = daysBack(1);
    const electric = await nodesLoss(server.db, DEMO_TENANT_ID, 1, { day: yesterday }, "Asia/Shanghai");
    assert.deepEqual(
      electric.map((n) => n.nodeName),
      ["1号楼", "2号楼", "3号楼", "4号楼", "5号楼(698)"],
    );
    for (const node of electric) {
      assert.ok(node.masterMeterCode, `${node.nodeName} has its master`);
      assert.ok(node.band && node.band.days === 28, `${node.nodeName}: a band from 28 days`);
    }
    // The shunt in 2号楼 hides energy its master still counts: its loss is the highest and outside
    // its band; the others stay at their 2–4 % and inside theirs.
    const byName = new Map(electric.map((n) => [n.nodeName, n]));
    const shunted = byName.get("2号楼")!;
    assert.equal(shunted.state, "above-band", JSON.stringify(shunted));
    for (const node of electric.filter((n) => n !== shunted)) {
      assert.ok(node.percent! >= 1.5 && node.percent! <= 4.5, `${node.nodeName}: ${node.percent}`);
      assert.equal(node.state, "ok", node.nodeName);
      assert.ok(node.percent! < shunted.percent!, `${node.nodeName} below 2号楼`);
    }
    const water = await nodesLoss(server.db, DEMO_TENANT_ID, 2, { day: yesterday }, "Asia/Shanghai");
    assert.equal(water.length, 4, "a water node for each building with water meters");
    assert.ok(
      water.every((n) => n.state === "ok" && n.percent! > 0 && n.percent! < 3),
      JSON.stringify(water),
    );
    // The site's totals stay the rooms': a master's or common meter's reads make no daily usage.
    const [daily] = await server.db.query<{ n: number }>(
      `select count(distinct meter_id)::int as n from pms_data_daily where tenant_id = $1`,
      [DEMO_TENANT_ID],
    );
    assert.equal(daily!.n, 150);
  });

  test("the suspects found on the first start are exactly the injected cases", async () => {
    const cases = demoCasesAt(startsAt);
    const { records } = await suspectsPage(server.db, DEMO_TENANT_ID, {}, 1, 50);
    const found = records.map((r) => [r.kind, r.meterCode, r.buildingName]).sort();
    assert.deepEqual(found, [
      ["night-flow", cases.leak.address, "3号楼"],
      ["relay-bypass", cases.relay.address, "2号楼"],
      ["sustained-drop", cases.bypass.address, "2号楼"],
    ]);
    const drop = records.find((r) => r.kind === "sustained-drop")!;
    const ratio = (name: string) =>
      (drop.figures as { name: string; value: number }[]).find((f) => f.name === name)!.value;
    // The meter counts 30 % of what it did; its node's loss rose by about what it no longer counts.
    const before = ratio("usage per day before");
    const now = ratio("usage per day now");
    assert.ok(now / before > 0.2 && now / before < 0.45, `${now} / ${before}`);
    assert.ok(Math.abs(ratio("node loss rise per day") - (before - now)) < 0.35 * (before - now));
  });

  test("the account in arrears is cut outside the protection windows; its cut waits in the command log for the gateway", async () => {
    const account = (await owners()).flatMap((o) => o.accounts).find((a) => a.arrearsStatus === 1)!;
    assert.ok(Number(account.balance) <= -10, account.balance);
    const commands = await get(server, token, `metercommand/list?size=50&productCode=${account.productCode}`);
    const cut = commands.records.find((c: { source?: string; state: string }) => c.state === "queued");
    assert.ok(cut, JSON.stringify(commands.records));
    assert.equal(
      JSON.parse(
        (
          await server.db.query<{ payload: string }>("select payload from pms_meter_command where id = $1", [
            cut.id,
          ])
        )[0]!.payload,
      ).switchType,
      2,
    );
    const [row] = await server.db.query<{ arrears_cut: number; source: string; create_time: Date | string }>(
      `select a.arrears_cut, c.source, c.create_time from pms_account a join pms_meter_command c on c.meter_id = a.meter_id
        where a.id = $1`,
      [account.id],
    );
    assert.equal(row!.arrears_cut, 2);
    assert.equal(row!.source, "arrears/cut");
    // Queued when the balance reached the line: a weekday between 07:00 and 22:00 Beijing time.
    const at = new Date(new Date(row!.create_time).getTime() + 8 * 3_600_000);
    assert.ok(at.getUTCDay() >= 1 && at.getUTCDay() <= 5, at.toISOString());
    assert.ok(at.getUTCHours() >= 7 && at.getUTCHours() < 22, at.toISOString());
    assert.ok(new Date(row!.create_time).getTime() < startsAt);
  });

  test("the simulated fleet goes on from the last read of the past: no jump in any register", async () => {
    const clock = new ManualClock(startsAt);
    const fleet = await startFleet({
      ...DEMO_FLEET,
      runningSince: startsAt,
      clock,
      anomalies: demoAnomalies(startsAt),
    });
    const building698 = await startFleet({ ...DEMO_698_FLEET, runningSince: startsAt, clock });
    try {
      const last = await server.db.query<{
        product_code: string;
        read_time: Date | string;
        total_value: string;
      }>(
        // The fleet's meters: the buildings' masters and common-area meters are on no DTU.
        `select distinct on (product_code) product_code, read_time, total_value::text as total_value
           from (select product_code, read_time, total_value from pms_data_read where tenant_id = $1
                 union all select product_code, read_time, total_value from pms_water_data_read where tenant_id = $1) r
          where product_code not like '%99__'
          order by product_code, read_time desc`,
        [DEMO_TENANT_ID],
      );
      assert.equal(
        last.length,
        planFleet(DEMO_FLEET).meters.length + planFleet(DEMO_698_FLEET).meters.length,
      );
      for (const read of last) {
        const meter = (fleet.meter(read.product_code) ?? building698.meter(read.product_code))!;
        // The first live poll, a minute after the start.
        meter.advance(startsAt + 60_000);
        const steps =
          meter instanceof ElectricMeter ? meter.shownTotal() : (meter as WaterMeter).shownVolume();
        const before = Math.round(Number(read.total_value) * 100);
        const hours = (startsAt + 60_000 - new Date(read.read_time).getTime()) / 3_600_000;
        assert.ok(hours <= 6.1, `${read.product_code}: last read ${hours} h before`);
        // At most ~3 kWh (or 0.1 m³) an hour for the heaviest user of the fleet.
        const most = Math.ceil(hours * (meter instanceof ElectricMeter ? 300 : 10));
        assert.ok(steps >= before && steps - before <= most, `${read.product_code}: ${before} → ${steps}`);
      }
    } finally {
      await fleet.close();
      await building698.close();
    }
  });

  test("started with its fleet, the gateway trips the meter in arrears and the first live polls go on from the past", async () => {
    const lastBefore = async () =>
      server.db.query<{ product_code: string; total_value: string; read_time: Date | string }>(
        `select distinct on (product_code) product_code, total_value::text as total_value, read_time from pms_data_read
          where tenant_id = $1 order by product_code, read_time desc`,
        [DEMO_TENANT_ID],
      );
    const past = new Map((await lastBefore()).map((r) => [r.product_code, Number(r.total_value)]));
    const lastRead = new Date((await lastBefore())[0]!.read_time).getTime();
    const metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 60_000,
      demoFleet: true,
      timeZone: "Asia/Shanghai",
      env: { GATEWAY_PORT: "0", GATEWAY_HOST: "127.0.0.1" },
    });
    try {
      const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
        for (let i = 0; i < 900; i++) {
          const value = await probe();
          if (value !== undefined) return value;
          await new Promise((r) => setTimeout(r, 200));
        }
        throw new Error(`timed out waiting for ${what}`);
      };
      const cut = await waitFor("the arrears cut carried out", async () => {
        const [row] = await server.db.query<{ state: string; product_code: string; switch_status: number }>(
          `select c.state, c.product_code, m.switch_status from pms_meter_command c join pms_meter m on m.id = c.meter_id
            where c.tenant_id = $1 and c.source = 'arrears/cut'`,
          [DEMO_TENANT_ID],
        );
        return row?.state === "success" ? row : undefined;
      });
      assert.equal(cut.switch_status, 1, "supply off");
      const meter = metering.fleet!.meter(cut.product_code)!;
      assert.ok(meter instanceof ElectricMeter && meter.relayOpen, "the simulated meter's relay is open");
      // Every electric meter's first live read starts where its past ended.
      const live = await waitFor("a live read of every electric meter", async () => {
        const rows = await server.db.query<{ product_code: string; total_value: string }>(
          `select distinct on (product_code) product_code, total_value::text as total_value from pms_data_read
            where tenant_id = $1 and read_time > $2 order by product_code, read_time`,
          [DEMO_TENANT_ID, new Date(startsAt)],
        );
        return rows.length === 140 + DEMO_698_FLEET.meters + DEMO_FLEET.modbusMeters ? rows : undefined;
      });
      // The 698 building's concentrator is online and its meter file, written by the gateway, holds them all.
      const [concentrator] = planFleet(DEMO_698_FLEET).dtuIds;
      const file = await waitFor("the concentrator's meter file", async () => {
        const [row] = await server.db.query<{ meter_file: { pn: number; address: string; port: number }[] }>(
          "select meter_file from pms_collector_meter_file where collector_code = $1",
          [concentrator],
        );
        return row;
      });
      assert.deepEqual(
        file.meter_file.map((row) => row.address).sort(),
        planFleet(DEMO_698_FLEET)
          .meters.map((m) => m.address)
          .sort(),
      );
      assert.ok(file.meter_file.every((row) => row.pn >= 1 && row.port === 31));
      const [online] = await server.db.query<{ online_status: number }>(
        "select online_status from pms_collector where collector_code = $1",
        [concentrator],
      );
      assert.equal(online!.online_status, 1);
      // At most ~3 kWh an hour for the heaviest user of the fleet, since the past's last read.
      const most = ((Date.now() - lastRead) / 3_600_000) * 3;
      // The shops' Modbus meters (510000000001…) have no past: they are read live, by their own number.
      const shops = new Set(planFleet(DEMO_FLEET).modbus.map((_, i) => String(510_000_000_001 + i)));
      assert.equal(live.filter((read) => shops.has(read.product_code)).length, shops.size);
      for (const read of live) {
        if (shops.has(read.product_code)) continue;
        const step = Number(read.total_value) - past.get(read.product_code)!;
        assert.ok(
          step >= 0 && step <= most,
          `${read.product_code}: ${past.get(read.product_code)} → ${read.total_value}`,
        );
      }
      assert.deepEqual(await get(server, token, "ledger/check"), { consistent: true, mismatches: [] });
      // The demo's faulty meters ring the bell with their check rules, next to the low balances.
      const expected = Object.entries(demoConditions()).map(([address, condition]) => [
        address,
        {
          batteryLow: "battery_low",
          reverseEnergy: "reverse_energy",
          clockDriftMinutes: "clock_drift",
          overPower: "over_power",
          valveFault: "valve_fault",
        }[Object.keys(condition)[0]!],
      ]);
      assert.equal(expected.length, 5);
      await waitFor("the demo's check alarms", async () => {
        const rows = await server.db.query<{ product_code: string; rule_code: string }>(
          `select product_code, rule_code from pms_check_record where tenant_id = $1 and alarm_status = 1`,
          [DEMO_TENANT_ID],
        );
        const raised = new Set(rows.map((r) => `${r.product_code}:${r.rule_code}`));
        return expected.every(([address, rule]) => raised.has(`${address}:${rule}`)) ? true : undefined;
      });
      const checks = await server.db.query<{ n: string }>(
        `select count(*)::text as n from pms_check_record
          where tenant_id = $1 and alarm_status = 1 and rule_code = any($2::text[])`,
        [DEMO_TENANT_ID, [...new Set(expected.map(([, rule]) => rule))]],
      );
      assert.equal(Number(checks[0]!.n), 5, "a handful: only the meters given a fault");
    } finally {
      await metering.close();
    }
  });
});
