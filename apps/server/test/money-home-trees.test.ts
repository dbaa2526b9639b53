import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created, treeIds } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

/** What the home page's money bars and the water closing tree answer. */
describe("home page money per period and the closing trees by energy type", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let accountId: string;

  const post = (path: string, body?: Record<string, unknown>, token = tenant.token) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  const data = async (path: string, token = tenant.token) => {
    const res = await get(path, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "首页物业");
    other = await provisionTenant(server, platform, "别家物业");
    site = await buildSite(server, tenant.token);
    for (const [energyType, resource, id, productCode] of [
      [1, "meter", site.meter, "100000000101"],
      [2, "water", site.water, "10000000000101"],
    ] as const) {
      const scheme = await created(server, tenant.token, "chargingscheme/submit", {
        schemeName: `方案${energyType}`,
        energyType,
        priceMode: 1,
        price: "1.0000",
      });
      await created(server, tenant.token, `${resource}/submit`, {
        id,
        productCode,
        collectorId: site.collector,
        ...(energyType === 1 ? { controlStatus: 1 } : {}),
        chargingSchemeId: scheme,
      });
    }
  });
  after(() => server.close());

  test("treeCloseAccount lists opened electric meters by default and opened water meters with energyType 2", async () => {
    assert.deepEqual(await data("meter/treeCloseAccount?energyType=2"), []);
    const opened = await post("waterparam/openAccount", { meterId: site.water, deposit: "10" });
    assert.equal(opened.statusCode, 200, opened.body);
    const water = treeIds(await data("meter/treeCloseAccount?energyType=2"));
    assert.ok(water.includes(site.water) && water.includes(site.room101), water.join());
    assert.ok(!water.includes(site.meter));
    assert.ok(!treeIds(await data("meter/treeCloseAccount")).includes(site.water));
    const res = await get("meter/treeCloseAccount?energyType=3");
    assert.equal(res.statusCode, 400);
    assert.match(res.json().msg, /energyType/);
  });

  test("rechargeChart sums recharges and refunds per day and per month, inside the tenant", async () => {
    const open = await post("message/openAccount", { meterId: site.meter });
    assert.equal(open.statusCode, 200, open.body);
    accountId = open.json().data[0].accountId;
    for (const [amount, paymentMethod, rechargeType] of [
      ["30.00", 1, 1],
      ["20.50", 3, 1],
      ["5.25", 1, 2],
    ] as const) {
      const res = await post("datarecharge/submit", { accountId, amount, paymentMethod, rechargeType });
      assert.equal(res.statusCode, 200, res.body);
    }
    // A correction is not money taken.
    const fix = await post("datarecharge/submit", {
      accountId,
      amount: "7",
      rechargeType: 3,
      remark: "补录",
    });
    assert.equal(fix.statusCode, 200, fix.body);

    const week = await data("homepage/rechargeChart?dateType=1");
    assert.equal(week.length, 7);
    const today = week.at(-1);
    assert.deepEqual(
      { recharge: today.recharge, refund: today.refund, count: today.count },
      { recharge: "50.50", refund: "5.25", count: 2 },
    );
    assert.ok(week.slice(0, 6).every((d: { recharge: string }) => d.recharge === "0.00"));
    assert.equal((await data("homepage/rechargeChart?dateType=2")).length, 30);
    const year = await data("homepage/rechargeChart?dateType=3");
    assert.equal(year.length, 12);
    assert.match(year.at(-1).day, /^\d{4}-\d{2}-01$/);
    assert.equal(year.at(-1).recharge, "50.50");
    assert.equal(year.at(-1).day.slice(0, 7), today.day.slice(0, 7));

    const elsewhere = await data("homepage/rechargeChart?dateType=1", other.token);
    assert.ok(
      elsewhere.every((d: { recharge: string; count: number }) => d.recharge === "0.00" && d.count === 0),
    );
    const bad = await get("homepage/rechargeChart?dateType=4");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^dateType: /);
  });
});
