import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { type ApiRoute, apiRoutes } from "./openapi-routes.ts";
import { buildSite, created } from "./registry-fixtures.ts";

/**
 * Routes that answer a signed-in user whatever its role holds: public ones (sign-in, the login
 * page, health, stored file links) and the calls every console makes for itself (its own menus,
 * profile, password, dictionary labels). Each says why. The own avatar's upload (put-file with
 * purpose=avatar) is open too; put-file as these calls send it (a plain file) needs oss_upload.
 */
const OPEN: Record<string, string> = {
  "GET /api/health": "public: health check",
  "POST /api/blade-auth/oauth/token": "public: sign-in",
  "GET /api/blade-auth/oauth/captcha": "public: login page",
  "GET /api/blade-auth/captcha": "public: the open-source Saber's login page",
  "POST /api/blade-auth/logout": "own session: the open-source Saber's logout",
  "GET /api/blade-auth/oauth/login-options": "public: login page",
  "GET /api/blade-system/tenant/info": "public: login page by domain",
  "POST /api/blade-user/register-guest": "public: third-party registration",
  "GET /api/blade-auth/oauth/render/{source}": "public: third-party sign-in starts",
  "GET /api/blade-auth/oauth/callback/{source}": "public: third-party sign-in returns",
  "GET /api/blade-auth/oauth/linked": "own sign-in accounts",
  "POST /api/blade-auth/oauth/link-start": "own sign-in accounts",
  "POST /api/blade-auth/oauth/link": "own sign-in accounts",
  "POST /api/blade-auth/oauth/unlink": "own sign-in accounts",
  "GET /api/blade-resource/oss/file/{*}": "public: stored file links",
  "POST /api/blade-pms/wxpay/notify/{tenantId}": "public: WeChat Pay notifications, signed by WeChat Pay",
  "POST /api/blade-pms/alipay/notify/{tenantId}": "public: Alipay notifications, RSA2-signed by Alipay",
  "POST /api/blade-pms/iot/push/{platform}/{tenantId}":
    "public: IoT platform pushes, signed or token-checked per platform",
  "GET /api/blade-pms/iot/push/{platform}/{tenantId}":
    "public: OneNET's URL verification handshake, signed with the token",
  // The owner page's sign-in (owners have no operator token; its other routes refuse one).
  "GET /api/blade-pms/h5/site": "public: owner page sign-in options",
  "POST /api/blade-pms/h5/code": "public: owner page SMS code",
  "POST /api/blade-pms/h5/sign-in": "public: owner page sign-in",
  "GET /api/blade-pms/h5/wechat": "public: owner page WeChat authorization starts",
  "GET /api/blade-pms/h5/wechat/callback": "public: owner page WeChat authorization returns",
  // The demo's simulated WeChat cashier (a payer's phone, not a signed-in person): 404 unless the
  // server started the demo's WeChat Pay double.
  "GET /api/blade-pms/h5/demo/cashier": "demo only: the simulated WeChat cashier page",
  "POST /api/blade-pms/h5/demo/cashier/pay": "demo only: the simulated WeChat cashier pays",
  // And the demo's simulated Alipay cashier: 404 unless the server started the demo's Alipay double.
  "GET /api/blade-pms/h5/demo/alipay/wap": "demo only: the simulated Alipay wap cashier page",
  "GET /api/blade-pms/h5/demo/alipay/pay": "demo only: the simulated Alipay cashier pays a QR order",
  "POST /api/blade-pms/h5/demo/alipay/pay": "demo only: the simulated Alipay cashier pays a wap order",
  "GET /api/blade-auth/oauth/user-info": "own session",
  "GET /api/blade-auth/oauth/clear-cache": "own session",
  "GET /api/blade-auth/oauth/logout": "own session",
  "GET /api/blade-system/menu/routes": "own menus",
  "GET /api/blade-system/menu/buttons": "own buttons",
  "GET /api/blade-system/menu/top-menu": "own top menus",
  "GET /api/blade-user/info": "own profile",
  "POST /api/blade-user/update-info": "own profile",
  "POST /api/blade-user/update-password": "own password",
  "GET /api/blade-system/dict/dictionary": "dictionary labels",
  "GET /api/blade-system/dict/dictionary-tree": "dictionary labels",
  "GET /api/blade-system/dict-biz/dictionary": "dictionary labels",
  "GET /api/blade-system/dict-biz/dictionary-tree": "dictionary labels",
  // Contract §6: work/* and process/* are any signed-in user's, each reading the own tenant's tasks.
  "GET /api/blade-flow/work/start-list": "own work list",
  "GET /api/blade-flow/work/claim-list": "own work list",
  "GET /api/blade-flow/work/todo-list": "own work list",
  "GET /api/blade-flow/work/send-list": "own work list",
  "GET /api/blade-flow/work/done-list": "own work list",
  "POST /api/blade-flow/work/claim-task": "own work: a candidate's claim",
  "POST /api/blade-flow/work/complete-task": "own work: the assignee's step",
  // An instance's steps, diagram and leave request: to those who took part in it (403 to others).
  "GET /api/blade-flow/process/history-flow-list": "steps of an instance the caller took part in",
  "GET /api/blade-flow/process/diagram-view": "diagram of an instance the caller took part in",
  "GET /api/blade-flow/process/resource-view": "XML of a definition the own tenant may start",
  "POST /api/blade-desk/process/leave/start-process": "own leave request",
  "GET /api/blade-pms/money-approval/detail": "a money approval the caller took part in (403 to others)",
  // The push stream is opened by a single-use ticket, which live/ticket gives only to users of the
  // pages that follow changes: without one the stream refuses (400 without, 401 with a bad one).
  "GET /api/blade-pms/live/stream": "public: opened by a single-use ticket, not a token",
  "GET /api/blade-desk/process/leave/detail": "a leave request the caller took part in",
};

const key = (route: ApiRoute) => `${route.method} ${route.documented}`;

describe("a user whose role grants nothing", () => {
  let server: TestServer;
  let token: string;
  /** Ids and names of other people's rows: none may appear in any answer. */
  let foreign: string[];
  /** Plausible parameters for every route: ids of the user's own tenant's rows. */
  let params: Record<string, string>;

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    const own = await provisionTenant(server, admin, "甲物业");
    const other = await provisionTenant(server, admin, "乙物业");
    const site = await buildSite(server, own.token, "leakA");
    const otherSite = {
      park: await created(server, other.token, "area/save", { areaName: "leakB", areaType: 1 }),
    };
    const role = await addRole(server.db, own.tenantId, "nothing");
    const user = await addUser(server.db, {
      tenantId: own.tenantId,
      account: "nobody",
      password: "nobody-pw",
      roleIds: [role],
    });
    token = (await server.login("nobody", "nobody-pw", own.tenantId)).access_token;
    const accounts = await server.db.query<{ id: string }>(
      "select id::text as id from sys_user where id <> $1",
      [user],
    );
    foreign = ["leakA", "leakB", other.tenantId, ...accounts.map((a) => a.id), ...Object.values(otherSite)];
    params = {
      id: site.room101,
      ids: `${site.room101},${site.meter}`,
      current: "1",
      size: "10",
      code: "yes_no",
      parentId: site.park,
      roleId: own.roleId,
      roleIds: own.roleId,
      userIds: user,
      topMenuIds: "1",
      deptId: own.deptId,
      areaId: site.park,
      roomId: site.room101,
      meterId: site.meter,
      ownerId: site.owner,
      collectorId: site.collector,
      energyType: "1",
      days: "7",
    };
  });
  after(() => server.close());

  const call = (route: ApiRoute, withParams: boolean) => {
    const query = withParams ? `?${new URLSearchParams(params)}` : "";
    return server.call(route.method, route.path + query, token, route.method === "POST" ? params : undefined);
  };

  test("is refused by every route of the OpenAPI document but the open ones, with and without parameters", async () => {
    // Signing out ends the session the others need: it goes last.
    const routes = apiRoutes(server.app).sort(
      (a, b) => Number(a.path.endsWith("/logout")) - Number(b.path.endsWith("/logout")),
    );
    assert.ok(routes.length > 150, `only ${routes.length} routes documented`);
    const answered: string[] = [];
    const openReads = new Set<string>();
    for (const route of routes) {
      for (const withParams of [false, true]) {
        const res = await call(route, withParams);
        for (const marker of foreign) {
          assert.ok(
            !res.body.includes(marker),
            `${key(route)} answered ${marker} of someone else: ${res.body.slice(0, 300)}`,
          );
        }
        if (OPEN[key(route)]) {
          if (route.method === "GET" && res.statusCode === 200 && !OPEN[key(route)]!.startsWith("public"))
            openReads.add(key(route));
          continue;
        }
        if (res.statusCode !== 401 && res.statusCode !== 403)
          answered.push(`${key(route)} ${res.statusCode}`);
      }
    }
    assert.deepEqual(answered, [], "routes that answered a user without permissions");
    // What such a user still reads, all of it the own: session, profile, menus (empty), the
    // dictionaries' labels every screen needs, and the own work lists and startable processes.
    assert.deepEqual([...openReads].sort(), [
      "GET /api/blade-auth/oauth/clear-cache",
      "GET /api/blade-auth/oauth/linked",
      "GET /api/blade-auth/oauth/logout",
      "GET /api/blade-auth/oauth/user-info",
      "GET /api/blade-flow/work/claim-list",
      "GET /api/blade-flow/work/done-list",
      "GET /api/blade-flow/work/send-list",
      "GET /api/blade-flow/work/start-list",
      "GET /api/blade-flow/work/todo-list",
      "GET /api/blade-system/dict-biz/dictionary",
      "GET /api/blade-system/dict-biz/dictionary-tree",
      "GET /api/blade-system/dict/dictionary",
      "GET /api/blade-system/dict/dictionary-tree",
      "GET /api/blade-system/menu/buttons",
      "GET /api/blade-system/menu/routes",
      "GET /api/blade-system/menu/top-menu",
      "GET /api/blade-user/info",
    ]);
  });

  test("the open routes are all still documented", () => {
    const documented = new Set(apiRoutes(server.app).map(key));
    assert.deepEqual(
      Object.keys(OPEN).filter((route) => !documented.has(route)),
      [],
    );
  });
});
