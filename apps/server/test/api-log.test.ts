import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FastifyBaseLogger } from "fastify";
import { nextId } from "../src/db/ids.ts";
import { DEFAULT_API_LOG } from "../src/plugins/api-log.ts";
import { type ApiLogRow, ApiLogWriter } from "../src/plugins/api-log-writer.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

const uris = async (server: TestServer) =>
  (await server.db.query<{ request_uri: string }>("select request_uri from log_api order by id")).map(
    (r) => r.request_uri,
  );

describe("api log: every call when asked", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ apiLog: { ...DEFAULT_API_LOG, all: true } });
  });
  after(() => server.close());

  test("API_LOG=all writes quiet reads too, after the answer, when the buffer is flushed", async () => {
    const token = (await server.login()).access_token;
    await server.call("GET", "/api/blade-auth/oauth/user-info", token);
    await server.app.apiLog.flush();
    assert.ok((await uris(server)).includes("/api/blade-auth/oauth/user-info"));
  });

  test("the last rows are written when the server closes", async () => {
    const token = (await server.login()).access_token;
    await server.call("GET", "/api/blade-system/menu/buttons", token);
    assert.ok(server.app.apiLog.pending >= 1, "written off the request path, not before the answer");
    await server.app.close();
    assert.ok((await uris(server)).includes("/api/blade-system/menu/buttons"));
  });
});

describe("api log: slow calls", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      apiLog: { ...DEFAULT_API_LOG, writes: false, errors: false, slow: true, slowMs: 0 },
    });
  });
  after(() => server.close());

  test("a call at or over API_LOG_SLOW_MS is written, whatever its kind", async () => {
    const token = (await server.login()).access_token;
    await server.call("GET", "/api/blade-auth/oauth/user-info", token);
    await server.app.apiLog.flush();
    const logged = await uris(server);
    assert.ok(logged.includes("/api/blade-auth/oauth/user-info"));
    // Every call is "slow" at 0 ms, so the token POST is too: what is off is only the kind.
    assert.ok(logged.includes("/api/blade-auth/oauth/token"));
  });
});

describe("api log writer", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const row = (uri: string): ApiLogRow => [
    nextId(),
    "000000",
    "host",
    "POST",
    uri,
    "",
    "127.0.0.1",
    "",
    "admin",
    "",
    200,
    1,
    Date.now(),
  ];

  test("a full buffer drops its oldest rows and says how many; batches go in multi-row inserts", async () => {
    await server.db.query("delete from log_api");
    const warnings: unknown[] = [];
    const log = { warn: (details: unknown) => warnings.push(details) } as unknown as FastifyBaseLogger;
    const statements: string[] = [];
    const db = {
      query: <T>(sql: string, params?: readonly unknown[]) => {
        statements.push(sql);
        return server.db.query<T>(sql, params);
      },
    };
    const writer = new ApiLogWriter(db, log, { bufferRows: 3, flushMs: 60_000 });
    for (const uri of ["/a", "/b", "/c", "/d", "/e"]) writer.add(row(uri));
    await writer.close();
    assert.deepEqual(await uris(server), ["/c", "/d", "/e"]);
    assert.deepEqual(warnings, [{ dropped: 2 }]);
    assert.equal(statements.length, 1, "one insert for the three rows");
  });
});
