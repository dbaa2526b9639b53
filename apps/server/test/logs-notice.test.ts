import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

describe("notices and logs", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  test("a notice's rich text is sanitized before it is stored, and its category gets a name", async () => {
    const res = await server.call("POST", "/api/blade-desk/notice/submit", admin, {
      title: "停电通知",
      category: 1,
      releaseTime: "2026-11-22 09:00:00",
      content:
        '<p onclick="x()">明日 <b>停电</b></p><script>alert(1)</script><img src="javascript:alert(1)">',
    });
    assert.equal(res.statusCode, 200, res.body);
    const [row] = await server.db.query<{ content: string }>(
      "select content from desk_notice where id = $1",
      [res.json().data.id],
    );
    assert.equal(row?.content, "<p>明日 <b>停电</b></p><img src>");
    const detail = (
      await server.call("GET", `/api/blade-desk/notice/detail?id=${res.json().data.id}`, admin)
    ).json();
    assert.equal(detail.data.categoryName, "发布通知");
    assert.equal(detail.data.categoryNameEn, "Announcement");
    assert.equal(detail.data.releaseTime, "2026-11-22 09:00:00");
  });

  test("notices filter by release-time range", async () => {
    for (const [title, time] of [
      ["十月", "2026-10-01 08:00:00"],
      ["十一月", "2026-11-05 08:00:00"],
    ]) {
      await server.call("POST", "/api/blade-desk/notice/submit", admin, {
        title,
        category: 6,
        releaseTime: time,
      });
    }
    const page = (
      await server.call(
        "GET",
        "/api/blade-desk/notice/list?releaseTime_datege=2026-11-01%2000:00:00&releaseTime_datelt=2026-11-10%2000:00:00",
        admin,
      )
    ).json().data;
    assert.deepEqual(
      page.records.map((r: { title: string }) => r.title),
      ["十一月"],
    );
    const bad = await server.call("GET", "/api/blade-desk/notice/list?releaseTime_datege=yesterday", admin);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().msg, "请求参数格式错误: releaseTime_datege");
  });

  test("writes and errors are written to the api log with status, duration, user and tenant; quiet reads are not", async () => {
    await server.call("GET", "/api/blade-auth/oauth/user-info?password=secret", admin);
    const bad = await server.call(
      "GET",
      "/api/blade-desk/notice/list?releaseTime_datege=x&password=secret",
      admin,
    );
    assert.equal(bad.statusCode, 400);
    await server.app.apiLog.flush();
    const rows = await server.db.query<{
      method: string;
      request_uri: string;
      status: number;
      create_by: string;
      tenant_id: string;
      params: string;
      time: number;
    }>(
      "select method, request_uri, status, create_by, tenant_id, params, time from log_api order by create_time, id",
    );
    assert.ok(
      !rows.some((r) => r.request_uri === "/api/blade-auth/oauth/user-info"),
      "a quiet read is not logged",
    );
    assert.ok(rows.some((r) => r.method === "POST" && r.request_uri === "/api/blade-desk/notice/submit"));
    const row = rows.find(
      (r) => r.request_uri === "/api/blade-desk/notice/list" && r.params.includes("password"),
    );
    assert.ok(row, "the failed read is logged");
    assert.equal(row.method, "GET");
    assert.equal(row.create_by, "admin");
    assert.equal(row.tenant_id, "000000");
    assert.equal(row.params, "releaseTime_datege=x&password=***");
    assert.ok(row.time >= 0);
  });
});

describe("log retention", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test("rows older than log.retentionDays are swept, newer ones kept", async () => {
    await server.db.query("update sys_param set param_value = '7' where param_key = 'log.retentionDays'");
    const old = nextId();
    const recent = nextId();
    await server.db.query(
      `insert into log_api (id, tenant_id, create_time) values ($1, '000000', now() - interval '8 days'),
                                                                 ($2, '000000', now() - interval '6 days')`,
      [old, recent],
    );
    await server.app.sweepLogs();
    const ids = (
      await server.db.query<{ id: string }>("select id from log_api where id = any($1::bigint[])", [
        [old, recent],
      ])
    ).map((r) => r.id);
    assert.deepEqual(ids, [recent]);
  });

  test("every log table is swept in every tenant, and the retention never drops below a week", async () => {
    await server.db.query("update sys_param set param_value = '1' where param_key = 'log.retentionDays'");
    const ages = { old: "10 days", kept: "3 days" };
    const inserted: Record<string, string[]> = { old: [], kept: [] };
    for (const table of ["log_api", "log_error", "log_usual"]) {
      for (const tenant of ["000000", "100001"]) {
        for (const [age, interval] of Object.entries(ages)) {
          const id = nextId();
          inserted[age]!.push(id);
          await server.db.query(
            `insert into ${table} (id, tenant_id, create_time) values ($1, $2, now() - $3::interval)`,
            [id, tenant, interval],
          );
        }
      }
    }
    // More old rows than one delete batch takes.
    await server.db.query(
      `insert into log_api (id, tenant_id, create_time)
       select 9000000000000000000 + n, '000000', now() - interval '30 days' from generate_series(1, 12000) n`,
    );
    await server.app.sweepLogs();
    const left = async (ids: string[]) => {
      let n = 0;
      for (const table of ["log_api", "log_error", "log_usual"]) {
        const [row] = await server.db.query<{ n: string }>(
          `select count(*) as n from ${table} where id = any($1::bigint[])`,
          [ids],
        );
        n += Number(row!.n);
      }
      return n;
    };
    assert.equal(await left(inserted.old!), 0);
    // A retention of 1 day is held to the floor of 7: rows of 3 days stay.
    assert.equal(await left(inserted.kept!), inserted.kept!.length);
    const [bulk] = await server.db.query<{ n: string }>(
      "select count(*) as n from log_api where id > 9000000000000000000",
    );
    assert.equal(Number(bulk!.n), 0);
  });
});
