import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { type CachePart, SharedCache } from "../src/cache/shared-cache.ts";
import { type Db, openDb } from "../src/db/client.ts";
import { addUser } from "./fixtures.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

/** The parts of the answers these tests read. */
interface Envelope {
  data: { id: string; records: { categoryName: string }[] } & Record<string, unknown>;
}

/** A server answering over HTTP, as a load balancer would reach it. */
interface Endpoint {
  app: FastifyInstance;
  call(
    method: "GET" | "POST",
    url: string,
    token: string,
    body?: unknown,
  ): Promise<{ status: number; body: Envelope }>;
}

async function endpointOf(app: FastifyInstance): Promise<Endpoint> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    async call(method, url, token, body) {
      const res = await fetch(base + url, {
        method,
        headers: {
          authorization: BASIC,
          "blade-auth": `bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Envelope };
    },
  };
}

/**
 * Everything is changed through `writer` and read back at once through `reader`: each read is first
 * served from the reader's warm cache (checked), so only the change announcement can make it right.
 */
async function changesReachTheReader(server: TestServer, writer: Endpoint, reader: Endpoint) {
  const admin = (await server.login()).access_token;
  // Across processes a change is announced through PostgreSQL: the reader's next request is right once
  // the announcement has reached it, which is a moment after the writer answers (under load, longer).
  // Waiting for the reader to drop that part keeps the test about the mechanism, not the race.
  const announced = async <T>(part: CachePart, write: () => Promise<T>): Promise<T> => {
    const before = reader.app.sharedCache.drops[part];
    const result = await write();
    if (writer !== reader)
      for (let i = 0; i < 200 && reader.app.sharedCache.drops[part] <= before; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
    return result;
  };
  const menuId = async (code: string) =>
    (await server.db.query<{ id: string }>("select id from sys_menu where code = $1", [code]))[0]!.id;
  const role = (
    await writer.call("POST", "/api/blade-system/role/submit", admin, {
      roleName: "岗位专员",
      roleAlias: "postClerk",
    })
  ).body.data.id as string;
  const grant = (menuIds: string[]) =>
    writer.call("POST", "/api/blade-system/role/grant", admin, {
      roleIds: [role],
      menuIds,
      dataScopeIds: [],
      apiScopeIds: [],
    });
  assert.equal(
    (await grant([await menuId("post"), await menuId("post_add"), await menuId("post_view")])).status,
    200,
  );
  await addUser(server.db, { tenantId: "000000", account: "clerk", password: "pw-clerk", roleIds: [role] });
  const clerk = (await server.login("clerk", "pw-clerk")).access_token;
  const addPost = (code: string) =>
    reader.call("POST", "/api/blade-system/post/submit", clerk, {
      category: 1,
      postCode: code,
      postName: "专员",
      sort: 1,
    });

  // Role grants: the reader has the clerk's codes cached, then the writer takes one away.
  assert.equal((await addPost("p1")).status, 200);
  assert.ok(reader.app.sharedCache.size("grants") > 0, "the reader's grants are cached");
  assert.equal(
    (await announced("grants", async () => grant([await menuId("post"), await menuId("post_view")]))).status,
    200,
  );
  assert.equal((await addPost("p2")).status, 403, "the next request to the reader sees the smaller grant");

  // Dictionary labels: the reader's list names the category from its cache, then the label changes.
  const categoryName = async () =>
    (await reader.call("GET", "/api/blade-system/post/list?postCode=p1", clerk)).body.data.records[0]
      ?.categoryName;
  const before = await categoryName();
  assert.ok(before, "the post's category has a label");
  assert.ok(reader.app.sharedCache.size("dict") > 0, "the reader's labels are cached");
  const [label] = await server.db.query<{ id: string }>(
    "select id from sys_dict where code = 'post_category' and dict_key = '1' and parent_id > 0",
  );
  const detail = (await writer.call("GET", `/api/blade-system/dict/detail?id=${label!.id}`, admin)).body.data;
  const edit = await announced("dict", () =>
    writer.call("POST", "/api/blade-system/dict/submit", admin, {
      ...detail,
      dictValue: "改名类别",
    }),
  );
  assert.equal(edit.status, 200, JSON.stringify(edit.body));
  assert.equal(await categoryName(), "改名类别");

  // Revocation: the reader knows the clerk's session, then the clerk logs out through the writer.
  assert.equal((await reader.call("GET", "/api/blade-auth/oauth/user-info", clerk)).status, 200);
  assert.ok(reader.app.sharedCache.size("session") > 0, "the reader's sessions are cached");
  assert.equal(
    (await announced("session", () => writer.call("GET", "/api/blade-auth/oauth/logout", clerk))).status,
    200,
  );
  assert.equal((await reader.call("GET", "/api/blade-auth/oauth/user-info", clerk)).status, 401);
}

describe("shared cache across two server processes on one PostgreSQL", {
  skip: !process.env.TEST_DATABASE_URL,
}, () => {
  let server: TestServer;
  let secondDb: Db;
  let a: Endpoint;
  let b: Endpoint;
  before(async () => {
    server = await startTestServer();
    // Another server on the same database: its own pool, its own listener, its own cache.
    secondDb = await openDb({ databaseUrl: server.databaseUrl });
    const second = await buildApp({
      db: secondDb,
      config: {
        jwtSecret: server.jwtSecret,
        dataKey: server.dataKey,
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
      },
    });
    a = await endpointOf(server.app);
    b = await endpointOf(second);
  });
  after(async () => {
    await b?.app.close();
    await secondDb?.close();
    await server?.close();
  });

  test("a role grant, a dictionary edit and a logout made through A hold on the next request to B", async () => {
    assert.ok(a.app.sharedCache.isLive && b.app.sharedCache.isLive);
    await changesReachTheReader(server, a, b);
  });

  test("a lost listening connection empties the cache and stops caching until it listens again", async () => {
    const admin = (await server.login()).access_token;
    assert.equal((await b.call("GET", "/api/blade-auth/oauth/user-info", admin)).status, 200);
    assert.ok(b.app.sharedCache.size("session") > 0);
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    const dropped = b.app.sharedCache.drops.session;
    await server.db.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query = 'listen meterline_cache'",
      [name],
    );
    const until = async (what: () => boolean) => {
      for (let i = 0; i < 100 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(what());
    };
    // Dropped when the loss is noticed, and again when listening resumes.
    await until(() => b.app.sharedCache.drops.session >= dropped + 2 && b.app.sharedCache.isLive);
    await until(() => a.app.sharedCache.isLive);
    assert.equal(b.app.sharedCache.size("session"), 0);
    assert.equal((await b.call("GET", "/api/blade-auth/oauth/user-info", admin)).status, 200);
    assert.ok(b.app.sharedCache.size("session") > 0, "caching again once listening");
  });
});

describe("shared cache in one process", () => {
  let server: TestServer;
  let one: Endpoint;
  before(async () => {
    server = await startTestServer();
    one = await endpointOf(server.app);
  });
  after(() => server.close());

  test("a role grant, a dictionary edit and a logout hold on the next request", async () => {
    await changesReachTheReader(server, one, one);
  });

  test("while the change channel is down nothing is cached, and coming back starts afresh", async () => {
    const cache = server.app.sharedCache;
    const admin = (await server.login()).access_token;
    assert.equal((await one.call("GET", "/api/blade-auth/oauth/user-info", admin)).status, 200);
    assert.ok(cache.size("session") > 0);
    cache.listening(false);
    assert.equal(cache.size("session"), 0);
    assert.equal((await one.call("GET", "/api/blade-auth/oauth/user-info", admin)).status, 200);
    assert.equal(cache.size("session"), 0, "nothing is cached while notifications may be missed");
    cache.listening(true);
    assert.equal((await one.call("GET", "/api/blade-auth/oauth/user-info", admin)).status, 200);
    assert.ok(cache.size("session") > 0);
  });
});

describe("which announced tables drop which parts", () => {
  test("each table drops the parts read from it and no other; a meter's readings drop nothing", () => {
    /** What each part is read from, as the readers' statements say. */
    const readFrom: Record<CachePart, string[]> = {
      session: ["auth_token", "sys_user", "sys_role", "sys_tenant"],
      grants: ["sys_menu", "sys_role_menu"],
      dataScope: ["sys_role_scope", "sys_scope_data"],
      apiScope: ["sys_role_scope", "sys_scope_api"],
      dict: ["sys_dict"],
      dictBiz: ["sys_tenant", "sys_dict_biz"],
      // Where meters belong (after-resources/064 announces only the changes that move a place).
      meterPlace: ["pms_meter", "pms_water", "pms_room_meter", "pms_account"],
    };
    const parts = Object.keys(readFrom) as CachePart[];
    // Besides, tables every reading writes and the live pages' messages on the same channel.
    const tables = new Set([
      ...Object.values(readFrom).flat(),
      "pms_owner",
      "pms_meter_current_data",
      "live:000000:balance:1",
    ]);
    const cache = new SharedCache();
    cache.listening(true);
    for (const table of tables) {
      const before = { ...cache.drops };
      cache.changed(table);
      assert.deepEqual(
        parts.filter((part) => cache.drops[part] !== before[part]),
        parts.filter((part) => readFrom[part].includes(table)),
        table,
      );
    }
  });
});
