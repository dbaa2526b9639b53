import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ResourceDef, resourceBase, resources } from "@meterline/contracts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { type ApiRoute, apiRoutes, tenantSnapshot, tenantTables } from "./openapi-routes.ts";
import { buildSite } from "./registry-fixtures.ts";

const definitions = Object.values(resources) as ResourceDef[];

/** The resource a route belongs to: the definition with the longest base the path starts with. */
function resourceOf(path: string): ResourceDef | undefined {
  return definitions
    .filter((def) => path.startsWith(`${resourceBase(def)}/`))
    .sort((a, b) => resourceBase(b).length - resourceBase(a).length)[0];
}

describe("a tenant admin naming another tenant's ids", () => {
  let server: TestServer;
  let intruder: string;
  let victim: string;
  /** One row id of the victim per resource, and the ids every route may be asked about. */
  const victimIds: Record<string, string> = {};
  let named: Record<string, string>;
  /** Every id and name of the victim's rows: none may appear in a successful answer. */
  let secrets: string[];

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    const a = await provisionTenant(server, admin, "甲物业");
    const b = await provisionTenant(server, admin, "乙物业");
    victim = a.tenantId;
    intruder = b.token;
    const site = await buildSite(server, a.token, "victimA");
    await server.db.query(
      `insert into sys_param (id, tenant_id, param_name, param_key, param_value, platform_wide)
       values (990001, $1, '甲的初始密码', 'account.initPassword', 'victimA-secret', 0)`,
      [victim],
    );
    for (const def of definitions.filter((d) => d.tenantScoped)) {
      const [row] = await server.db.query<{ id: string }>(
        `select id::text as id from ${def.table} where tenant_id = $1 order by id limit 1`,
        [victim],
      );
      if (row) victimIds[def.name] = row.id;
    }
    named = {
      tenantId: victim,
      roleId: a.roleId,
      roleIds: a.roleId,
      deptId: a.deptId,
      userId: victimIds.user!,
      userIds: victimIds.user!,
      areaId: site.park,
      roomId: site.room101,
      meterId: site.meter,
      waterId: site.water,
      ownerId: site.owner,
      collectorId: site.collector,
      ownerGroupId: victimIds.ownerGroup ?? site.owner,
      chargingSchemeId: victimIds.chargingScheme ?? site.meter,
      alarmSchemeId: victimIds.alarmScheme ?? site.meter,
      topMenuIds: victimIds.topMenu ?? a.roleId,
    };
    secrets = ["victimA"];
    for (const table of await tenantTables(server.db)) {
      const rows = await server.db.query<{ id: string }>(
        `select to_jsonb(t)->>'id' as id from "${table}" t where t.tenant_id = $1`,
        [victim],
      );
      secrets.push(...rows.flatMap((r) => (r.id ? [r.id] : [])));
    }
  });
  after(() => server.close());

  /** The victim's ids under every name a route may read them by. */
  const paramsFor = (route: ApiRoute) => {
    const def = resourceOf(route.path);
    const own = (def && victimIds[def.name]) ?? named.roomId!;
    return { ...named, id: own, ids: own, parentId: own, [`${def?.name ?? "room"}Id`]: own };
  };
  /** A JSON body as the console sends it: grant calls take arrays of ids. */
  const bodyOf = (params: Record<string, string>) =>
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, k.endsWith("Ids") ? [v] : v]));

  test("gets refusals or empty answers from every route of the OpenAPI document, and changes nothing of the other tenant", async () => {
    // The victim's own setup calls are still in the API log's buffer: write them before comparing.
    await server.app.apiLog.flush();
    const before = await tenantSnapshot(server.db, victim);
    // Signing out ends the session the others need: it goes last.
    const routes = apiRoutes(server.app).sort(
      (a, b) => Number(a.path.endsWith("/logout")) - Number(b.path.endsWith("/logout")),
    );
    const leaks: string[] = [];
    for (const route of routes) {
      const params = paramsFor(route);
      const query = `?${new URLSearchParams(params)}`;
      const calls =
        route.method === "GET"
          ? [server.call("GET", route.path + query, intruder)]
          : [
              server.call("POST", route.path + query, intruder, {}),
              server.call("POST", route.path, intruder, bodyOf(params)),
            ];
      for (const res of await Promise.all(calls)) {
        if ([400, 401, 403, 404].includes(res.statusCode)) continue;
        const seen = secrets.filter((secret) => res.body.includes(secret));
        if (res.statusCode >= 500 || seen.length)
          leaks.push(
            `${route.method} ${route.documented} ${res.statusCode} ${seen.join(",")} ${res.body.slice(0, 200)}`,
          );
      }
    }
    assert.deepEqual(leaks, []);
    await server.app.apiLog.flush();
    assert.deepEqual(await tenantSnapshot(server.db, victim), before);
  });
});
