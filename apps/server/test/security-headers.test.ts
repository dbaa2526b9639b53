import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../src/app.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

function assertSecurityHeaders(res: LightMyRequestResponse, what: string) {
  const csp = String(res.headers["content-security-policy"] ?? "");
  assert.match(csp, /default-src 'self'/, `${what}: CSP`);
  assert.match(csp, /script-src 'self'(;|$)/, `${what}: scripts only from our origin`);
  assert.doesNotMatch(csp, /unsafe-eval/, what);
  assert.match(csp, /frame-ancestors 'self'/, `${what}: frame-ancestors`);
  assert.equal(res.headers["x-frame-options"], "SAMEORIGIN", what);
  assert.equal(res.headers["x-content-type-options"], "nosniff", what);
  assert.equal(res.headers["referrer-policy"], "no-referrer", what);
}

describe("security headers and the API browser", () => {
  let server: TestServer;
  let withConsole: FastifyInstance;
  let consoleDist: string;

  before(async () => {
    server = await startTestServer();
    // The console as it is served: a built index.html at / and the SPA fallback behind it.
    consoleDist = await mkdtemp(path.join(tmpdir(), "meterline-console-"));
    await writeFile(path.join(consoleDist, "index.html"), '<!doctype html><div id="root"></div>');
    withConsole = await buildApp({
      db: server.db,
      config: {
        jwtSecret: server.jwtSecret,
        dataKey: server.dataKey,
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
        consoleDist,
      },
    });
  });
  after(async () => {
    await withConsole.close();
    await server.close();
    await rm(consoleDist, { recursive: true, force: true });
  });

  test("every answer carries them: API, errors, the console and its deep links", async () => {
    assertSecurityHeaders(await server.inject({ method: "GET", url: "/api/health" }), "health");
    assertSecurityHeaders(await server.inject({ method: "GET", url: "/api/blade-system/param/list" }), "401");
    assertSecurityHeaders(await server.inject({ method: "GET", url: "/api/nothing" }), "404");
    assertSecurityHeaders(
      await server.inject({ method: "GET", url: "/api/blade-system/param/list?x=%00" }),
      "400",
    );
    assertSecurityHeaders(await server.inject({ method: "GET", url: "/api/docs/" }), "API browser");
    assertSecurityHeaders(await withConsole.inject({ method: "GET", url: "/" }), "console");
    assertSecurityHeaders(await withConsole.inject({ method: "GET", url: "/wel/index" }), "console route");
  });

  test("in production the API browser and the OpenAPI document are not served", async () => {
    const production = await startTestServer({ production: true });
    try {
      for (const url of ["/api/docs/", "/api/docs/static/index.html", "/api/openapi.json"]) {
        const res = await production.inject({ method: "GET", url });
        assert.equal(res.statusCode, 404, url);
        assert.equal(res.json().code, 404, url);
      }
      // Still built in-process, for tests and tools.
      await production.app.ready();
      assert.ok((production.app.swagger() as { paths: object }).paths);
    } finally {
      await production.close();
    }
  });
});
