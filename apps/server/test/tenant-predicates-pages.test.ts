import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { resourceBase, resources } from "@meterline/contracts";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";
import { type KnownScan, recordInPlace, scansWithoutTenant } from "./plan-tenant.ts";

/**
 * The console's pages and the counter's money, as a tenant's operator opens them on the demo site:
 * every statement they run is planned by EXPLAIN, and every scan of a tenant table must be limited
 * by its tenant (its own condition on tenant_id, or a join on it above). The readings' hot path has
 * its own test (tenant-predicates.test.ts); docs/scale.md says why both matter (Citus by tenant).
 */

/** Scans known to go without the tenant, and why; each a task of its own. */
const KNOWN: readonly KnownScan[] = [
  {
    statement: /^select c\.id::text as id, a\.dict_value as action_name/,
    table: "sys_user",
    why: "a command's operator may be the platform's administrator, a user of tenant 000000: the name is read across tenants by design (docs/scale.md)",
  },
];

const PLATFORM_ONLY = new Set(["tenant", "param"]);

/** The domain pages the console opens beside the plain resources' lists. */
const DOMAIN_PAGES = [
  "/api/blade-pms/homepage/deviceStatusData",
  "/api/blade-pms/homepage/getChart?dateType=1&energyType=1",
  "/api/blade-pms/homepage/getDdRank?energyType=1",
  "/api/blade-pms/homepage/rechargeChart?dateType=1",
  "/api/blade-pms/homepage/paymentMethodRatio?dateType=1",
  "/api/blade-pms/homepage/rechargeTypeRatio?dateType=1",
  "/api/blade-pms/attention/page?current=1&size=10",
  "/api/blade-pms/datarecharge/page?current=1&size=10",
  "/api/blade-pms/payment/list?current=1&size=10",
];

describe("the console's pages and the counter's money name the tenant in every statement", () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    token = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
  });
  after(async () => server?.close());

  test("first pages of every tenant resource and of the money screens, and a counter recharge", async () => {
    const lists = Object.values(resources)
      // The platform's own screens (tenants, parameters) answer its administrator only.
      .filter((def) => def.tenantScoped && !PLATFORM_ONLY.has(def.name))
      .map((def) => `${resourceBase(def)}/${def.listVerb}?current=1&size=10`);
    const [meter] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_meter where tenant_id = $1 and account_status = 1 order by id limit 1",
      [DEMO_TENANT_ID],
    );
    const recorder = recordInPlace(server.db);
    const refused: string[] = [];
    try {
      await recorder.during(async () => {
        for (const url of [...lists, ...DOMAIN_PAGES]) {
          const res = await server.call("GET", url, token);
          if (res.statusCode !== 200) refused.push(`${url}: ${res.statusCode}`);
        }
        const recharge = await server.call("POST", "/api/blade-pms/datarecharge/submit", token, {
          meterId: meter!.id,
          amount: "30",
          paymentMethod: 1,
          idempotencyKey: "plan-check-0001",
        });
        assert.equal(recharge.statusCode, 200, recharge.body);
      });
    } finally {
      recorder.stop();
    }
    assert.deepEqual(refused, [], "every page answers the tenant's administrator");
    const { failures, planned } = await scansWithoutTenant(server.db, recorder.statements, KNOWN);
    assert.ok(planned >= lists.length, `${planned} statements planned for ${lists.length} lists`);
    assert.deepEqual(failures, [], "every scan of a tenant table is limited by its tenant");
  });
});
