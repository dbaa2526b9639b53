import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { md5Hex } from "../src/modules/auth/password.ts";
import { type Child, run, SERVER_ENTRY, stop, waitFor } from "./child-processes.ts";
import { ADMIN_PASSWORD, freePort, multipartFile, startTestServer, type TestServer } from "./helpers.ts";

const CLIENT_SECRET = randomBytes(18).toString("base64url");
const CLIENT = `Basic ${Buffer.from(`saber:${CLIENT_SECRET}`).toString("base64")}`;

// Two API server processes on one PostgreSQL database, each with its own DATA_DIR, the tenant on
// local storage: what a site gets that scales out without configuring object storage.
describe("two API servers on local storage", {
  skip: !process.env.TEST_DATABASE_URL,
  timeout: 180_000,
}, () => {
  let server: TestServer;
  const apis: Child[] = [];
  const bases: string[] = [];
  const dataDirs: string[] = [];
  let token = "";

  const startApi = async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-api-"));
    dataDirs.push(dataDir);
    const child = run(SERVER_ENTRY, {
      DATABASE_URL: server.databaseUrl!,
      JWT_SECRET: server.jwtSecret,
      DATA_ENCRYPTION_KEY: server.dataKey,
      DATA_DIR: dataDir,
      PORT: String(port),
      // A server on PostgreSQL is production: it names its secrets (the administrator exists already).
      ADMIN_PASSWORD: randomBytes(18).toString("base64url"),
      CLIENT_SECRET,
      GATEWAY_EMBEDDED: "0",
      DEMO_DATA: "0",
      CONSOLE_DIST: "/nonexistent",
    });
    apis.push(child);
    const base = `http://127.0.0.1:${port}`;
    bases.push(base);
    await waitFor(`the API server at ${base}`, 120_000, async () => {
      if (child.process.exitCode !== null) assert.fail(`API server exited:\n${child.output()}`);
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      return up ? true : undefined;
    });
  };
  const get = (base: string, url: string) =>
    fetch(`${base}${url}`, { headers: { authorization: CLIENT, "blade-auth": `bearer ${token}` } });

  before(async () => {
    server = await startTestServer();
    // One after the other: the second finds the first alive in the database.
    await startApi();
    await startApi();
    const login = await fetch(
      `${bases[0]}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5Hex(ADMIN_PASSWORD)}&grant_type=password&scope=all`,
      { method: "POST", headers: { authorization: CLIENT, "tenant-id": "000000" } },
    );
    const answer = await login.clone().text();
    const outputs = apis.map((child, i) => `--- API server ${i}\n${child.output()}`).join("\n");
    assert.equal(login.status, 200, `${answer}\n${outputs}`);
    token = ((await login.json()) as { access_token: string }).access_token;
  });

  after(async () => {
    await Promise.all(apis.map((child) => stop(child)));
    await server.close();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test("the second server warns at start that files on local storage are not shared", () => {
    const warning = /several API servers share this database while files are kept on local storage/;
    assert.match(apis[1]!.output(), warning);
    assert.doesNotMatch(apis[0]!.output(), warning, "the first server started alone");
  });

  test("a file uploaded through one server is served there, and the other says why it cannot", async () => {
    const content = Buffer.from(`meter readings ${randomBytes(8).toString("hex")}\n`);
    const body = multipartFile("readings.txt", content);
    const uploaded = await fetch(`${bases[0]}/api/blade-resource/oss/endpoint/put-file-attach`, {
      method: "POST",
      headers: { ...body.headers, authorization: CLIENT, "blade-auth": `bearer ${token}` },
      body: body.payload,
    });
    assert.equal(uploaded.status, 200, await uploaded.clone().text());
    const { link, attachId } = ((await uploaded.json()) as { data: { link: string; attachId: string } }).data;

    const here = await get(bases[0]!, link);
    assert.equal(here.status, 200);
    assert.deepEqual(Buffer.from(await here.arrayBuffer()), content);

    // The other server holds the record but not the bytes: an envelope naming why, not a bare 404.
    for (const url of [link, `/api/blade-resource/attach/download?id=${attachId}`]) {
      const there = await get(bases[1]!, url);
      assert.equal(there.status, 503, url);
      assert.match(there.headers.get("content-type") ?? "", /application\/json/);
      const answer = (await there.json()) as { code: number; success: boolean; msg: string };
      assert.equal(answer.code, 503);
      assert.equal(answer.success, false);
      assert.match(answer.msg, /另一台 API 服务器/);
      assert.match(answer.msg, /S3 兼容的对象存储/);
    }

    // Once the other server is gone, the file is simply not on this disk: 404, saying where it looked.
    await stop(apis[0]);
    await waitFor("the stopped server's lease given back", 10_000, async () => {
      const res = await get(bases[1]!, link);
      return res.status === 404 ? res : undefined;
    }).then(async (res) => assert.match(((await res.json()) as { msg: string }).msg, /本地存储/));
  });
});
