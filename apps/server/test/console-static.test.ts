import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { IMMUTABLE } from "../src/plugins/console-static.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

const ASSET = "/assets/index-AbC_d3F-.js";
const IMAGE = "/assets/logo-AbC_d3F-.svg";

/** The body as the browser reads it, whichever encoding it travelled in. */
function decoded(res: { headers: Record<string, unknown>; rawPayload: Buffer }): string {
  const encoding = res.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(res.rawPayload).toString();
  if (encoding === "gzip") return gunzipSync(res.rawPayload).toString();
  assert.equal(encoding, undefined);
  return res.rawPayload.toString();
}

describe("the console's files and the API's answers on the wire", () => {
  let server: TestServer;
  let withConsole: FastifyInstance;
  let consoleDist: string;
  // Large enough to be worth compressing, varied enough that the three copies differ.
  const script = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i * 7};`).join("\n");

  before(async () => {
    server = await startTestServer();
    // A build as the console's vite build leaves it: hashed assets with .br and .gz copies.
    consoleDist = await mkdtemp(path.join(tmpdir(), "meterline-console-"));
    await mkdir(path.join(consoleDist, "assets"));
    await writeFile(path.join(consoleDist, "index.html"), '<!doctype html><div id="root"></div>');
    const asset = path.join(consoleDist, ASSET);
    await writeFile(asset, script);
    // Each copy marked, so the test sees that the build's copy went out, not one compressed on the fly.
    await writeFile(`${asset}.br`, brotliCompressSync(`${script}\n// br`));
    await writeFile(`${asset}.gz`, gzipSync(`${script}\n// gz`));
    await writeFile(path.join(consoleDist, IMAGE), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // The owner page: a second document of the same build, with its own entry script.
    await mkdir(path.join(consoleDist, "h5"));
    await writeFile(
      path.join(consoleDist, "h5", "index.html"),
      '<!doctype html><div id="root" data-owner-page></div>',
    );
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

  const get = (url: string, acceptEncoding?: string) =>
    withConsole.inject({
      method: "GET",
      url,
      headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
    });

  test("a hashed asset goes out as the build's brotli copy, else gzip, cached for a year", async () => {
    const br = await get(ASSET, "gzip, deflate, br");
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers["content-encoding"], "br");
    assert.match(String(br.headers["content-type"]), /javascript/);
    assert.equal(br.headers["cache-control"], IMMUTABLE);
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.equal(br.headers["x-content-type-options"], "nosniff");
    assert.equal(br.headers["cross-origin-resource-policy"], "same-origin");
    assert.equal(decoded(br), `${script}\n// br`);
    assert.ok(br.rawPayload.length < script.length / 2, "the brotli copy is what travels");

    const gz = await get(ASSET, "gzip");
    assert.equal(gz.headers["content-encoding"], "gzip");
    assert.equal(gz.headers["cache-control"], IMMUTABLE);
    assert.equal(decoded(gz), `${script}\n// gz`);

    const plain = await get(ASSET);
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(plain.body, script);
    assert.equal(plain.headers["cache-control"], IMMUTABLE);
  });

  test("scripts go without the headers that only mean something on a page; documents keep them", async () => {
    for (const encoding of ["br", "gzip", undefined]) {
      const res = await get(ASSET, encoding);
      for (const name of [
        "content-security-policy",
        "x-frame-options",
        "strict-transport-security",
        "etag",
      ]) {
        assert.equal(res.headers[name], undefined, `${name} (${encoding ?? "plain"})`);
      }
    }
    // An SVG can be opened as a page of its own (and run script): it keeps the page's policy.
    const image = await get(IMAGE, "br, gzip");
    assert.equal(image.statusCode, 200);
    assert.match(String(image.headers["content-security-policy"]), /default-src 'self'/);
    assert.equal(image.headers["x-frame-options"], "SAMEORIGIN");
    const page = await get("/", "br, gzip");
    assert.match(String(page.headers["content-security-policy"]), /default-src 'self'/);
    assert.equal(page.headers["x-frame-options"], "SAMEORIGIN");
  });

  test("a missing asset is a 404, not the console's page", async () => {
    const res = await get("/assets/gone-12345678.js", "br, gzip");
    assert.equal(res.statusCode, 404);
    assert.doesNotMatch(decoded(res), /id="root"/);
  });

  test("index.html and the console's routes are revalidated at every load", async () => {
    for (const url of ["/", "/index.html", "/wel/index"]) {
      const res = await get(url, "br, gzip");
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers["cache-control"], "no-cache", url);
      assert.match(decoded(res), /id="root"/, url);
    }
  });

  test("the owner page is its own document under /h5/, revalidated at every load, its assets shared", async () => {
    for (const url of ["/h5/", "/h5/?tenant=000000", "/h5/bills"]) {
      const res = await get(url, "br, gzip");
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers["cache-control"], "no-cache", url);
      assert.match(decoded(res), /data-owner-page/, url);
      assert.match(String(res.headers["content-security-policy"]), /default-src 'self'/, url);
    }
    const bare = await get("/h5?tenant=000000");
    assert.equal(bare.statusCode, 302);
    assert.equal(bare.headers.location, "/h5/?tenant=000000");
    // The console's own routes still get the console.
    assert.doesNotMatch(decoded(await get("/wel/index", "br")), /data-owner-page/);
    const asset = await get(ASSET, "br");
    assert.equal(asset.headers["content-encoding"], "br");
    assert.equal(asset.headers["cache-control"], IMMUTABLE);
  });

  test("API answers above 1 KB are compressed, small ones are not", async () => {
    const token = (await server.login()).access_token;
    const headers = { authorization: BASIC, "blade-auth": `bearer ${token}`, "accept-encoding": "br, gzip" };
    const large = await withConsole.inject({ method: "GET", url: "/api/blade-system/menu/routes", headers });
    assert.equal(large.statusCode, 200);
    assert.equal(large.headers["content-encoding"], "br");
    const body = JSON.parse(decoded(large)) as { success: boolean };
    assert.equal(body.success, true);
    assert.ok(large.rawPayload.length > 0);

    const small = await withConsole.inject({ method: "GET", url: "/api/health", headers });
    assert.equal(small.statusCode, 200);
    assert.equal(small.headers["content-encoding"], undefined);
    assert.equal((JSON.parse(small.body) as { success: boolean }).success, true);
  });
});
