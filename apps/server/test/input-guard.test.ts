import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, test } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { ANONYMOUS_ERROR_ROWS } from "../src/plugins/error-handler.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

const BEYOND_64_BITS = "9999999999999999999";

/** A 400 in the envelope whose message starts with the field's name. */
function assertNamed(res: LightMyRequestResponse | { statusCode: number; body: string }, field: string) {
  assert.equal(res.statusCode, 400, res.body);
  const body = JSON.parse(res.body);
  assert.equal(body.code, 400);
  assert.equal(body.success, false);
  assert.deepEqual(body.data, {});
  assert.ok(body.msg.includes(field), `${field} not named in: ${body.msg}`);
}

describe("malformed input is a 400 naming the field, never a 500", () => {
  let server: TestServer;
  let token: string;
  const errorRows = async () =>
    Number((await server.db.query<{ n: string }>("select count(*) as n from log_error"))[0]!.n);

  before(async () => {
    server = await startTestServer();
    // A route that fails like a genuine fault, to see what anonymous faults write to the error log.
    server.app.get("/api/test-fault", { config: { public: true } }, async () => {
      throw new Error("a genuine fault");
    });
    token = (await server.login()).access_token;
  });
  after(() => server.close());

  test("ids beyond a signed 64-bit integer, in detail, remove and filters", async () => {
    assertNamed(await server.call("GET", `/api/blade-system/param/detail?id=${BEYOND_64_BITS}`, token), "id");
    assertNamed(
      await server.call("POST", `/api/blade-system/role/remove?ids=1,${BEYOND_64_BITS}`, token),
      "ids",
    );
    assertNamed(
      await server.call("GET", `/api/blade-pms/roommeter/page?meterId=${BEYOND_64_BITS}`, token),
      "meterId",
    );
    assertNamed(
      await server.call("GET", `/api/blade-pms/ownerroom/page?roomId=${BEYOND_64_BITS}`, token),
      "roomId",
    );
    assertNamed(
      await server.call("GET", `/api/blade-system/role/tree-by-id?roleId=${BEYOND_64_BITS}`, token),
      "roleId",
    );
  });

  test("ids that are no numbers are a 400 naming the field, on bespoke routes too", async () => {
    for (const url of [
      "/api/blade-develop/datasource/detail?id=x",
      "/api/blade-develop/code/detail?id=1e3",
      "/api/blade-system/param/detail?id=1.5",
    ]) {
      assertNamed(await server.call("GET", url, token), "请求参数格式错误: id");
    }
    for (const [url, body] of [
      ["/api/blade-develop/datasource/submit", { id: "x", name: "d" }],
      ["/api/blade-develop/datasource/test-connection", { id: "x" }],
      ["/api/blade-develop/code/submit", { id: "x" }],
      ["/api/blade-develop/code/copy", { id: "x" }],
      ["/api/blade-user/registration/approve", { id: "x", roleId: "1", deptId: "1" }],
      ["/api/blade-user/registration/reject", { id: "x", reason: "no" }],
      ["/api/blade-user/registration/approve", { id: "1", roleId: true, deptId: "1" }],
      ["/api/blade-pms/datarecharge/submit", { accountId: { id: "1" }, amount: "1" }],
    ] as const) {
      const named = Object.entries(body).find(
        ([name, value]) => name !== "name" && name !== "reason" && !/^\d+$/.test(String(value)),
      )![0];
      assertNamed(await server.call("POST", url, token, body), `请求参数格式错误: ${named}`);
    }
    // The family's comma lists under a singular name (a user's roleId) stay ids.
    const users = await server.call("GET", "/api/blade-user/page?roleId=1,2&deptId=", token);
    assert.equal(users.statusCode, 200, users.body);
  });

  test("a list where one value goes is refused, not cut to its first item", async () => {
    const accounts = await server.db.query<{ id: string }>(
      "select id::text from pms_account order by id limit 1",
    );
    const ledger = async () =>
      Number((await server.db.query<{ n: string }>("select count(*) as n from pms_ledger"))[0]!.n);
    const before = await ledger();
    const accountId = accounts[0]?.id ?? "1";
    assertNamed(
      await server.call("POST", "/api/blade-pms/datarecharge/submit", token, {
        accountId,
        amount: ["1", "999"],
      }),
      "请求参数格式错误: amount",
    );
    assertNamed(
      await server.call("GET", "/api/blade-system/param/detail?id=1&id=2", token),
      "请求参数格式错误: id",
    );
    assertNamed(
      await server.call("GET", "/api/blade-pms/meter/page?productCode=1&productCode=2", token),
      "请求参数格式错误: productCode",
    );
    assert.equal(await ledger(), before, "a refused recharge booked nothing");
  });

  test("a page number of 1e300 names current; a JSON number past a double names its field", async () => {
    assertNamed(await server.call("GET", "/api/blade-system/param/list?current=1e300", token), "current");
    const res = await server.inject({
      method: "POST",
      url: "/api/blade-system/param/submit",
      headers: { "blade-auth": `bearer ${token}`, "content-type": "application/json" },
      payload: '{"paramName":"n","paramKey":"k","paramValue":"v","sort":1e400}',
    });
    assertNamed(res, "sort");
  });

  test("NUL in query values, JSON bodies and form bodies, signed in or not", async () => {
    assertNamed(await server.call("GET", "/api/blade-system/param/list?tenantId=%00", token), "tenantId");
    assertNamed(
      await server.call("POST", "/api/blade-system/param/submit", token, {
        paramName: "a\u0000b",
        paramKey: "k",
        paramValue: "v",
      }),
      "paramName",
    );
    const before = await errorRows();
    assertNamed(
      await server.inject({
        method: "POST",
        url: "/api/blade-user/register-guest?tenantId=000000&name=%00&account=guest&password=x",
      }),
      "name",
    );
    assertNamed(
      await server.inject({
        method: "POST",
        url: "/api/blade-user/register-guest",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "tenantId=000000&name=Guest&account=g%01&password=x",
      }),
      "account",
    );
    assertNamed(await server.inject({ method: "GET", url: "/api/blade-resource/oss/file/%00.png" }), "path");
    assert.equal(await errorRows(), before, "anonymous garbage wrote the error log");
  });

  test("multipart without a boundary, and a control character in a file name", async () => {
    assertNamed(
      await server.inject({
        method: "POST",
        url: "/api/blade-user/import-user",
        headers: { "blade-auth": `bearer ${token}`, "content-type": "multipart/form-data" },
        payload: "--x\r\n\r\n",
      }),
      "file",
    );
    const upload = multipartFile("a\u0000.png", Buffer.from("89504e470d0a1a0a00", "hex"));
    assertNamed(
      await server.inject({
        method: "POST",
        url: "/api/blade-resource/oss/endpoint/put-file",
        headers: { ...upload.headers, "blade-auth": `bearer ${token}` },
        payload: upload.payload,
      }),
      "file",
    );
  });

  test("a query string over 16 KB is a 400 in the envelope, in process and on a real socket", async () => {
    const long = `/api/blade-system/param/list?paramName=${"x".repeat(17 * 1024)}`;
    assertNamed(await server.call("GET", long, token), "query");
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = server.app.server.address() as { port: number };
    const answer = await new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: long }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () => resolve({ statusCode: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
    assertNamed(answer, "query");
  });

  test("anonymous faults write a bounded number of error-log rows", async () => {
    const before = await errorRows();
    const sent = ANONYMOUS_ERROR_ROWS * 3;
    for (let i = 0; i < sent; i++) {
      assert.equal((await server.inject({ method: "GET", url: "/api/test-fault" })).statusCode, 500);
    }
    const written = (await errorRows()) - before;
    assert.ok(written >= 1, "a genuine fault is still logged");
    // At most two windows' worth even if the run straddles a window boundary.
    assert.ok(written <= ANONYMOUS_ERROR_ROWS * 2, `${written} rows for ${sent} anonymous faults`);
  });
});
