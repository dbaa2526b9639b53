import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

describe("开通向导: a new site's way from empty to its first recharge", () => {
  let server: TestServer;
  let platform: string;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;

  const progress = async (token = tenant.token) => {
    const res = await server.call("GET", `${pms}/setup/progress`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { counts: Record<string, number>; next: string | null; done: boolean };
  };

  before(async () => {
    server = await startTestServer();
    platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "新开物业");
  });
  after(() => server?.close());

  test("an empty site starts at its areas; each step counts what the tenant made, no one else's", async () => {
    const empty = await progress();
    assert.equal(empty.next, "areas");
    assert.equal(empty.done, false);
    assert.ok(Object.values(empty.counts).every((n) => n === 0));

    const other = await provisionTenant(server, platform, "隔壁物业");
    await buildSite(server, other.token);
    assert.deepEqual(
      (await progress()).counts,
      empty.counts,
      "another tenant's site counts for nothing here",
    );

    const site = await buildSite(server, tenant.token);
    const built = await progress();
    assert.deepEqual(
      { ...built.counts },
      {
        areas: 3,
        rooms: 3,
        chargingSchemes: 0,
        alarmSchemes: 0,
        collectors: 1,
        meters: 2,
        owners: 1,
        accounts: 0,
        recharges: 0,
      },
    );
    assert.equal(built.next, "chargingSchemes");

    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    await created(server, tenant.token, "alarmscheme/submit", {
      schemeName: "标准告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "0",
    });
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    const opened = await server.call("POST", `${pms}/message/openAccount`, tenant.token, {
      meterId: site.meter,
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const before = await progress();
    assert.equal(before.next, "recharges", "everything but the first recharge is done");

    const [account] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_account where tenant_id = $1",
      [tenant.tenantId],
    );
    const paid = await server.call("POST", `${pms}/datarecharge/submit`, tenant.token, {
      accountId: account!.id,
      rechargeType: 1,
      paymentMethod: 1,
      amount: "50.00",
    });
    assert.equal(paid.statusCode, 200, paid.body);
    const done = await progress();
    assert.equal(done.done, true);
    assert.equal(done.next, null);
  });

  test("only users of the registry's screens read it", async () => {
    const role = await addRole(server.db, tenant.tenantId, "cashier");
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "cashier",
      password: "Cashier-Passw0rd!",
      roleIds: [role],
    });
    const cashier = (await server.login("cashier", "Cashier-Passw0rd!", tenant.tenantId)).access_token;
    assert.equal((await server.call("GET", `${pms}/setup/progress`, cashier)).statusCode, 403);
  });
});
