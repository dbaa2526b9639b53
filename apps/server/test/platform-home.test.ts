import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

type Row = Record<string, unknown>;
type Tenant = Awaited<ReturnType<typeof provisionTenant>>;

/** Yuan or kWh text with two decimals, as whole hundredths: sums stay exact. */
const cents = (text: unknown) => Math.round(Number(text) * 100);

/** Sums rows that share a key: each named field added up (decimal text as hundredths). */
function summed(rows: Row[], key: (row: Row) => string, fields: string[]): Map<string, number[]> {
  const sums = new Map<string, number[]>();
  for (const row of rows) {
    const k = key(row);
    const previous = sums.get(k) ?? fields.map(() => 0);
    sums.set(
      k,
      fields.map((field, i) => previous[i]! + cents(row[field])),
    );
  }
  return sums;
}

/**
 * Each home-page read, and how its answers add up across tenants: the platform administrator's
 * every-tenant figure must equal the sum of its per-tenant figures.
 */
const HOME_READS: { path: string; sum: (answers: unknown[]) => unknown }[] = [
  {
    path: "homepage/deviceStatusData",
    sum: (answers) => {
      const total: Record<string, Record<string, number>> = {};
      for (const answer of answers as Record<string, Record<string, number>>[])
        for (const [group, counts] of Object.entries(answer))
          for (const [name, count] of Object.entries(counts)) {
            total[group] ??= {};
            total[group]![name] = (total[group]![name] ?? 0) + count;
          }
      return total;
    },
  },
  ...["1", "2"].map((energyType) => ({
    path: `homepage/getChart?dateType=1&energyType=${energyType}`,
    sum: (answers: unknown[]) =>
      summed((answers as Row[][]).flat(), (r) => String(r.day), ["usage", "meters"]),
  })),
  {
    path: "homepage/getDdRank?energyType=1",
    // Fewer than ten meters in all: every tenant's rank is the union of each one's.
    sum: (answers) =>
      (answers as Row[][])
        .flat()
        .map((r) => `${String(r.meterId)}:${String(r.usage)}`)
        .sort(),
  },
  ...["rechargeType", "paymentMethod"].map((kind) => ({
    path: `homepage/${kind}Ratio?dateType=1`,
    sum: (answers: unknown[]) =>
      summed((answers as Row[][]).flat(), (r) => String(r[kind]), ["amount", "count"]),
  })),
  {
    path: "homepage/rechargeChart?dateType=1",
    sum: (answers) =>
      summed((answers as Row[][]).flat(), (r) => String(r.day), ["recharge", "refund", "count"]),
  },
  {
    path: "checkRecord/ruleCounts",
    sum: (answers) => summed((answers as Row[][]).flat(), (r) => String(r.ruleCode), ["count"]),
  },
];

/** The platform administrator's home sums every tenant or reads one; anyone else reads only their own. */
describe("the platform administrator's home: every tenant or one", () => {
  let server: TestServer;
  let admin: string;
  let a: Tenant;
  let b: Tenant;

  const data = async (path: string, token: string) => {
    const res = await server.call("GET", `${pms}/${path}`, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data as unknown;
  };
  const withTenant = (path: string, tenantId: string) =>
    `${path}${path.includes("?") ? "&" : "?"}tenantId=${tenantId}`;
  /** The figure a path answers after a sum, comparable with deepEqual (maps as sorted entries). */
  const comparable = (value: unknown) =>
    value instanceof Map ? [...value.entries()].sort(([x], [y]) => x.localeCompare(y)) : value;

  /** A site with an opened, recharged account, usage today and open alarms, its figures its own. */
  const stock = async (
    tenant: Tenant,
    prefix: string,
    figures: { recharge: string; usage: string; rules: string[]; collectors: number },
  ) => {
    const site = await buildSite(server, tenant.token, prefix);
    // Sites of the same shape would count the same devices: the extra collectors tell them apart.
    for (let n = 1; n < figures.collectors; n++)
      await created(server, tenant.token, "collector/submit", {
        collectorName: `${prefix}DTU ${n}`,
        collectorCode: `${prefix}DTU-${n}`,
        areaId: site.building2,
      });
    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    const meter = (await server.call("GET", `${pms}/meter/detail?id=${site.meter}`, tenant.token)).json()
      .data;
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      productCode: meter.productCode,
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    const opened = await server.call("POST", `${pms}/message/openAccount`, tenant.token, {
      meterIds: site.meter,
      deposit: "10",
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const { accountId } = (opened.json().data as { accountId: string }[])[0]!;
    const recharged = await server.call("POST", `${pms}/datarecharge/submit`, tenant.token, {
      accountId,
      amount: figures.recharge,
      paymentMethod: 3,
      idempotencyKey: `platform-home-${accountId}`,
    });
    assert.equal(recharged.statusCode, 200, recharged.body);
    await server.db.query(
      `insert into pms_data_daily (id, tenant_id, meter_id, room_id, product_code, day_date, start_value, end_value, usage)
       values ($1, $2, $3, $4, $5, (now() at time zone 'Asia/Shanghai')::date, 100.00, 100.00 + $6::numeric, $6::numeric)`,
      [nextId(), tenant.tenantId, site.meter, site.room101, meter.productCode, figures.usage],
    );
    await server.db.query(
      `insert into pms_water_data_daily (id, tenant_id, meter_id, room_id, product_code, day_date, start_value, end_value, usage)
       values ($1, $2, $3, $4, $5, (now() at time zone 'Asia/Shanghai')::date - 1, 10.00, 10.00 + $6::numeric, $6::numeric)`,
      [nextId(), tenant.tenantId, site.water, site.room101, `W${prefix}`, figures.usage],
    );
    for (const rule of figures.rules)
      await server.db.query(
        `insert into pms_check_record (id, tenant_id, energy_type, meter_id, product_code, rule_code, check_rule_name,
                                       alarm_status, content, create_time, last_check_time)
         values ($1, $2, 1, $3, $4, $5, $5, 1, '表计自报', now(), now())`,
        [nextId(), tenant.tenantId, site.meter, meter.productCode, rule],
      );
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    a = await provisionTenant(server, admin, "甲物业");
    b = await provisionTenant(server, admin, "乙物业");
    await stock(a, "甲", { recharge: "30.50", usage: "3.45", rules: ["battery_low"], collectors: 1 });
    await stock(b, "乙", {
      recharge: "12.34",
      usage: "7.80",
      rules: ["battery_low", "cover_open"],
      collectors: 3,
    });
  });
  after(() => server.close());

  test("without a tenant, each home read sums every tenant; with one, reads only it", async () => {
    const tenants = [a.tenantId, b.tenantId, "000000"];
    for (const { path, sum } of HOME_READS) {
      const all = await data(path, admin);
      const each = await Promise.all(tenants.map((t) => data(withTenant(path, t), admin)));
      assert.deepEqual(comparable(sum([all])), comparable(sum(each)), path);
      // Both tenants hold figures of this read, so the sum is not one tenant's alone.
      const [ofA, ofB] = [sum([each[0]]), sum([each[1]])];
      assert.notDeepEqual(comparable(ofA), comparable(sum([all])), `${path}: 甲 alone`);
      assert.notDeepEqual(comparable(ofB), comparable(sum([all])), `${path}: 乙 alone`);
    }
    // The figures themselves, once: two tenants' recharges and today's usage added up.
    const chart = (await data("homepage/rechargeChart?dateType=1", admin)) as Row[];
    assert.equal(chart.at(-1)!.recharge, "42.84");
    const usage = (await data("homepage/getChart?dateType=1&energyType=1", admin)) as Row[];
    assert.equal(usage.at(-1)!.usage, "11.25");
    // Every tenant's rank names whose each meter is (both sites have a room 101); one tenant's does not.
    const rank = (await data("homepage/getDdRank?energyType=1", admin)) as Row[];
    assert.deepEqual(
      rank.map((r) => [r.usage, r.tenantName]),
      [
        ["7.80", "乙物业"],
        ["3.45", "甲物业"],
      ],
    );
    const rankOfA = (await data(withTenant("homepage/getDdRank?energyType=1", a.tenantId), admin)) as Row[];
    assert.ok(rankOfA.length === 1 && !("tenantName" in rankOfA[0]!), JSON.stringify(rankOfA));
    const rules = (await data("checkRecord/ruleCounts", admin)) as Row[];
    assert.deepEqual(
      rules.map((r) => [r.ruleCode, r.count]),
      [
        ["battery_low", 2],
        ["cover_open", 1],
      ],
    );
  });

  test("a tenant's administrator naming another tenant still reads its own figures", async () => {
    for (const { path, sum } of HOME_READS) {
      const own = await data(path, a.token);
      const asked = await data(withTenant(path, b.tenantId), a.token);
      assert.deepEqual(comparable(sum([asked])), comparable(sum([own])), path);
      const ofB = await data(withTenant(path, b.tenantId), admin);
      assert.notDeepEqual(comparable(sum([own])), comparable(sum([ofB])), `${path}: 乙's figures differ`);
      const adminOfA = await data(withTenant(path, a.tenantId), admin);
      assert.deepEqual(
        comparable(sum([own])),
        comparable(sum([adminOfA])),
        `${path}: 甲 as the platform sees it`,
      );
    }
  });

  test("a malformed tenantId is refused naming the field, for anyone", async () => {
    for (const token of [admin, a.token])
      for (const { path } of HOME_READS) {
        const res = await server.call("GET", `${pms}/${withTenant(path, "x'or'1")}`, token);
        assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
        assert.match(res.json().msg, /tenantId/);
      }
  });
});
