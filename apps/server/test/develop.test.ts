import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { after, before, describe, test } from "node:test";
import { resources } from "@meterline/contracts";
import { strFromU8, unzipSync } from "fflate";
import { addRole, addTenant, addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

const DS = "/api/blade-develop/datasource";
const CODE = "/api/blade-develop/code";

/** A TCP listener that counts who connects: a refused data source must never reach it. */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, connections: () => count };
}

describe("blade-develop: data sources and code generation", () => {
  let server: TestServer;
  let admin: string;
  let trap: Awaited<ReturnType<typeof listener>>;
  /** An allowed host:port where nothing listens (a closed port), and the PostgreSQL server if any. */
  let closedPort: number;
  const pg = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL) : undefined;

  before(async () => {
    trap = await listener();
    const closed = await listener();
    closedPort = closed.port;
    await new Promise((resolve) => closed.server.close(resolve));
    const allowed = [`127.0.0.1:${closedPort}`, ...(pg ? [`${pg.hostname}:${pg.port || 5432}`] : [])];
    server = await startTestServer({ datasourceAllowedHosts: allowed.join(",") });
    admin = (await server.login()).access_token;
    await server.db.query(
      `create table demo_gadget (
         id bigint primary key, tenant_id varchar(12) not null default '000000',
         gadget_name varchar(64) not null, quantity integer, unit_price numeric(12, 2),
         made_on date, note text, is_deleted integer not null default 0,
         create_user bigint, create_dept bigint, create_time timestamptz not null default now(),
         update_user bigint, update_time timestamptz not null default now(), status integer not null default 1)`,
    );
    await server.db.query("comment on column demo_gadget.gadget_name is '小工具名称'");
  });
  after(async () => {
    await server.close();
    await new Promise((resolve) => trap.server.close(resolve));
  });

  const submitDs = (body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${DS}/submit`, token, body);

  test("the server's own database is the first data source, and a test connection reaches it", async () => {
    const list = (await server.call("GET", `${DS}/list?current=1&size=10`, admin)).json();
    assert.equal(list.code, 200);
    const own = list.data.records.find((r: { id: string }) => r.id === "1");
    assert.equal(own.url, "");
    const tested = await server.call("POST", `${DS}/test-connection?id=1`, admin);
    assert.equal(tested.statusCode, 200, tested.body);
    assert.match(tested.json().data.version, /^\d+/);
  });

  test("a password is stored encrypted and answered masked; a mask sent back keeps it", async () => {
    const created = await submitDs({
      name: "报表库",
      url: `jdbc:postgresql://127.0.0.1:${closedPort}/reports`,
      username: "report",
      password: "s3cret-pass",
    });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json().data.id as string;
    assert.equal(created.json().data.password, "****");
    const [stored] = await server.db.query<{ password: string }>(
      "select password from blade_datasource where id = $1",
      [id],
    );
    assert.match(stored!.password, /^enc:v1:/);
    assert.ok(!stored!.password.includes("s3cret"));
    const detail = (await server.call("GET", `${DS}/detail?id=${id}`, admin)).json().data;
    assert.equal(detail.password, "****");
    assert.ok(!JSON.stringify((await server.call("GET", `${DS}/list`, admin)).json()).includes("s3cret"));
    const renamed = await submitDs({ ...detail, name: "报表库2" });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const [kept] = await server.db.query<{ password: string; name: string }>(
      "select password, name from blade_datasource where id = $1",
      [id],
    );
    assert.equal(kept!.password, stored!.password);
    assert.equal(kept!.name, "报表库2");
    const filtered = (
      await server.call("GET", `${DS}/list?name=${encodeURIComponent("报表库2")}`, admin)
    ).json().data;
    assert.deepEqual(
      filtered.records.map((r: { id: string }) => r.id),
      [id],
    );
    assert.equal((await submitDs({ name: "" })).json().msg, "name: 不能为空");
    const removed = await server.call("POST", `${DS}/remove?ids=${id}`, admin);
    assert.equal(removed.json().success, true);
    assert.equal((await server.call("GET", `${DS}/detail?id=${id}`, admin)).statusCode, 404);
  });

  test("hosts and ports not allowed are refused before any connection", async () => {
    const refused = [
      "jdbc:postgresql://169.254.169.254:80/latest",
      `jdbc:postgresql://127.0.0.1:${trap.port}/postgres`,
      `postgres://localhost:${trap.port}/postgres`,
      "postgresql://metadata.google.internal/computeMetadata",
      `postgres://user:pw@127.0.0.1:${closedPort}/x`,
      `postgres://127.0.0.1:${closedPort}/x?host=169.254.169.254`,
      `jdbc:mysql://127.0.0.1:${closedPort}/x`,
    ];
    for (const url of refused) {
      const started = Date.now();
      const tested = await server.call("POST", `${DS}/test-connection`, admin, {
        url,
        username: "u",
        password: "p",
      });
      assert.equal(tested.statusCode, 400, url);
      assert.match(tested.json().msg, /^url: /, url);
      assert.ok(Date.now() - started < 2000, `${url} answered at once`);
      const saved = await submitDs({ name: "探测", url });
      assert.equal(saved.statusCode, 400, url);
      assert.match(saved.json().msg, /^url: /);
    }
    assert.equal(trap.connections(), 0);
  });

  test("an allowed host that does not answer gives a clear reason, never the driver's words", async () => {
    const tested = await server.call("POST", `${DS}/test-connection`, admin, {
      url: `jdbc:postgresql://127.0.0.1:${closedPort}/x`,
      username: "u",
      password: "p",
    });
    assert.equal(tested.statusCode, 400);
    assert.equal(tested.json().msg, "连接失败: 无法连接到数据库服务器");
  });

  test("an allowed PostgreSQL server: wrong password refused, right one connects", {
    skip: !pg,
  }, async () => {
    const url = `jdbc:postgresql://${pg!.hostname}:${pg!.port || 5432}/${pg!.pathname.slice(1)}`;
    const wrong = await server.call("POST", `${DS}/test-connection`, admin, {
      url,
      username: "no_such_role_here",
      password: "wrong",
    });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.json().msg, /^连接失败: /);
    const right = await server.call("POST", `${DS}/test-connection`, admin, {
      url,
      username: decodeURIComponent(pg!.username),
      password: decodeURIComponent(pg!.password),
    });
    assert.equal(right.statusCode, 200, right.body);
  });

  test("tenant administrators and users without the platform role are refused on every call", async () => {
    await addTenant(server.db, "400701");
    const tenantAdmin = await addRole(server.db, "400701", "administrator");
    await addUser(server.db, {
      tenantId: "400701",
      account: "dsadmin",
      password: "pw-ds",
      roleIds: [tenantAdmin],
    });
    const admin2 = await addRole(server.db, "400701", "admin");
    await addUser(server.db, {
      tenantId: "400701",
      account: "dsadmin2",
      password: "pw-ds",
      roleIds: [admin2],
    });
    const plain = await addRole(server.db, "000000", "developer");
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select 900000 + m.id, m.id, $1 from sys_menu m where m.code like 'code%' or m.code like 'datasource%'`,
      [plain],
    );
    await addUser(server.db, { tenantId: "000000", account: "dsdev", password: "pw-ds", roleIds: [plain] });
    const tokens = [
      (await server.login("dsadmin", "pw-ds", "400701")).access_token,
      (await server.login("dsadmin2", "pw-ds", "400701")).access_token,
      (await server.login("dsdev", "pw-ds")).access_token,
    ];
    const calls: [method: "GET" | "POST", url: string][] = [
      ["GET", `${DS}/list`],
      ["GET", `${DS}/select`],
      ["GET", `${DS}/detail?id=1`],
      ["POST", `${DS}/submit`],
      ["POST", `${DS}/remove?ids=1`],
      ["POST", `${DS}/test-connection?id=1`],
      ["GET", `${CODE}/list`],
      ["GET", `${CODE}/detail?id=1`],
      ["POST", `${CODE}/submit`],
      ["POST", `${CODE}/remove?ids=1`],
      ["POST", `${CODE}/copy?id=1`],
      ["POST", `${CODE}/gen-code?ids=1`],
    ];
    for (const token of tokens)
      for (const [method, url] of calls) {
        const res = await server.call(method, url, token, method === "POST" ? { name: "x" } : undefined);
        assert.equal(res.statusCode, 403, `${method} ${url}`);
      }
    assert.equal((await server.call("GET", `${DS}/detail?id=1`, admin)).statusCode, 200);
  });

  const gadget = {
    datasourceId: "1",
    serviceName: "blade-demo",
    codeName: "小工具",
    codeNameEn: "Gadget",
    tableName: "demo_gadget",
    tablePrefix: "demo_",
    listFields: "gadget_name,quantity,unit_price,made_on",
    searchFields: "gadget_name,made_on",
    formFields: "",
  };

  test("a definition: create, list, detail, copy, remove; clashes are refused naming the field", async () => {
    const created = await server.call("POST", `${CODE}/submit`, admin, gadget);
    assert.equal(created.statusCode, 200, created.body);
    const row = created.json().data;
    assert.equal(row.resourceName, "gadget");
    assert.equal(row.resourcePath, "gadget");
    const listed = (
      await server.call("GET", `${CODE}/list?codeName=${encodeURIComponent("工具")}`, admin)
    ).json().data;
    assert.ok(listed.records.some((r: { id: string }) => r.id === row.id));
    const copy = await server.call("POST", `${CODE}/copy?id=${row.id}`, admin);
    assert.equal(copy.json().data.codeName, "小工具-copy");
    assert.notEqual(copy.json().data.id, row.id);
    await server.call("POST", `${CODE}/remove?ids=${copy.json().data.id}`, admin);
    assert.equal(
      (await server.call("GET", `${CODE}/detail?id=${copy.json().data.id}`, admin)).statusCode,
      404,
    );

    const clashes: [Record<string, string>, RegExp][] = [
      [{ resourceName: "meter" }, /^resourceName: /],
      [{ resourceName: "wxConfig" }, /^resourceName: /],
      [{ tableName: resources.meter.table, resourceName: "meterCopy" }, /^tableName: /],
      [{ tableName: "sms_send_log", resourceName: "sendLog" }, /^tableName: /],
      [{ serviceName: "blade-pms", resourcePath: "meter", resourceName: "meterTwo" }, /^resourcePath: /],
      [{ resourceName: "datasource" }, /^resourceName: /],
      [{ resourceName: "tool" }, /^resourceName: /],
      [{ tableName: "demo gadget; drop table x" }, /^tableName: /],
      [{ listFields: "gadget_name;1" }, /^listFields: /],
    ];
    for (const [change, message] of clashes) {
      const res = await server.call("POST", `${CODE}/submit`, admin, { ...gadget, ...change });
      assert.equal(res.statusCode, 400, JSON.stringify(change));
      assert.match(res.json().msg, message, JSON.stringify(change));
    }
  });

  test("gen-code reads the table and answers a zip of the definition, labels, menu seed and test", async () => {
    const id = (await server.call("POST", `${CODE}/submit`, admin, gadget)).json().data.id as string;
    const res = await server.call("POST", `${CODE}/gen-code?ids=${id}&system=saber`, admin);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers["content-type"], "application/zip");
    const files = unzipSync(new Uint8Array(res.rawPayload));
    assert.deepEqual(Object.keys(files).sort(), [
      "apps/server/src/db/migrations/seed/900_gadget.sql",
      "apps/server/test/generated/gadget.test.ts",
      "packages/contracts/src/resources/generated/gadget.ts",
      "packages/contracts/src/resources/generated/index.ts",
    ]);
    const def = strFromU8(files["packages/contracts/src/resources/generated/gadget.ts"]!);
    assert.match(def, /table: "demo_gadget"/);
    assert.match(def, /service: "blade-demo"/);
    assert.match(def, /tenantScoped: true,\n\s+softDelete: true,\n\s+audit: true/);
    assert.match(def, /gadgetName: \{ type: "string", maxLength: 64, required: true, search: "like" \}/);
    assert.match(def, /unitPrice: \{ type: "decimal", scale: 2 \}/);
    assert.match(def, /note: \{ type: "text", list: false, span: 24 \}/);
    assert.match(def, /madeOn: \{ type: "date", search: "range" \}/);
    assert.match(def, /gadgetName: "小工具名称"/);
    assert.match(def, /title: "Gadget"/);
    assert.ok(!/createTime|isDeleted|tenantId/.test(def), "system columns are the engine's");
    const seed = strFromU8(files["apps/server/src/db/migrations/seed/900_gadget.sql"]!);
    for (const code of ["'gadget'", "'gadget_add'", "'gadget_edit'", "'gadget_delete'", "'gadget_view'"])
      assert.ok(seed.includes(code), code);
    assert.ok(seed.includes("'/demo/gadget'"));
    const index = strFromU8(files["packages/contracts/src/resources/generated/index.ts"]!);
    assert.match(index, /import \{ gadget, gadgetLabels \} from "\.\/gadget\.ts";/);
    const suite = strFromU8(files["apps/server/test/generated/gadget.test.ts"]!);
    assert.match(suite, /describePlainResources\(\[resources\.gadget\]\)/);
  });

  test("gen-code reads the table through another PostgreSQL connection when the data source names one", {
    skip: !pg,
  }, async () => {
    const own = new URL(server.databaseUrl!);
    const ds = await submitDs({
      name: "测试库",
      url: `jdbc:postgresql://${own.hostname}:${own.port || 5432}${own.pathname}`,
      username: decodeURIComponent(own.username),
      password: decodeURIComponent(own.password) || "unused",
    });
    assert.equal(ds.statusCode, 200, ds.body);
    const created = await server.call("POST", `${CODE}/submit`, admin, {
      ...gadget,
      datasourceId: ds.json().data.id,
      resourceName: "gadgetRemote",
    });
    assert.equal(created.statusCode, 200, created.body);
    const res = await server.call("POST", `${CODE}/gen-code?ids=${created.json().data.id}`, admin);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const def = strFromU8(files["packages/contracts/src/resources/generated/gadget-remote.ts"]!);
    assert.match(def, /gadgetName: \{ type: "string", maxLength: 64, required: true, search: "like" \}/);
    // Another database of the same server has no such table: the definition reads where it points.
    const elsewhere = await submitDs({
      ...ds.json().data,
      url: `jdbc:postgresql://${pg!.hostname}:${pg!.port || 5432}${pg!.pathname}`,
    });
    assert.equal(elsewhere.statusCode, 200, elsewhere.body);
    const missing = await server.call("POST", `${CODE}/gen-code?ids=${created.json().data.id}`, admin);
    assert.equal(missing.json().msg, "tableName: 数据源中没有表 demo_gadget");
  });

  test("gen-code refuses a missing table, an unknown system and unknown ids", async () => {
    const missing = await server.call("POST", `${CODE}/submit`, admin, {
      ...gadget,
      tableName: "no_such_table",
      resourceName: "nothing",
    });
    const id = missing.json().data.id as string;
    const res = await server.call("POST", `${CODE}/gen-code?ids=${id}`, admin);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().msg, "tableName: 数据源中没有表 no_such_table");
    assert.equal((await server.call("POST", `${CODE}/gen-code?ids=${id}&system=x`, admin)).statusCode, 400);
    assert.equal((await server.call("POST", `${CODE}/gen-code?ids=123456`, admin)).statusCode, 404);
  });
});
