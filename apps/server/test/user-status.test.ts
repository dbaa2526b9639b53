import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { md5Hex } from "../src/modules/auth/password.ts";
import { ADMIN_PASSWORD, BASIC, freePort, startTestServer, type TestServer } from "./helpers.ts";

/** Users are enabled and disabled from the user screen; a disabled user's sessions end at once. */
describe("user status", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  const createUser = async (account: string, password: string) => {
    const res = await server.call("POST", "/api/blade-user/submit", admin, {
      account,
      password: md5Hex(password),
      name: account,
      realName: account,
      roleId: "2",
      deptId: "1",
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.id as string;
  };
  const page = async (query: string) => {
    const res = await server.call("GET", `/api/blade-user/page?current=1&size=100&${query}`, admin);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records as { id: string; account: string; status: number; statusName: string }[];
  };
  const refresh = (refreshToken: string) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "refresh_token", refresh_token: refreshToken, scope: "all", tenantId: "000000" },
      headers: { authorization: BASIC, "tenant-id": "000000" },
    });

  test("a new user is enabled; the page shows the status with its label and filters by it", async () => {
    const id = await createUser("listed", "Listed-pw1");
    const [row] = (await page("account=listed")).filter((r) => r.id === id);
    assert.equal(row?.status, 1);
    assert.equal(row?.statusName, "启用");
    const disable = await server.call("POST", "/api/blade-user/update", admin, { id, status: 0 });
    assert.equal(disable.statusCode, 200, disable.body);
    const disabled = await page("status=0");
    assert.ok(disabled.some((r) => r.id === id && r.statusName === "禁用"));
    assert.ok(
      disabled.every((r) => r.status === 0),
      "only disabled users",
    );
    assert.ok((await page("status=1")).every((r) => r.id !== id));
  });

  test("user/update with status 0 ends the sessions and refuses every sign-in; re-enabling lets it sign in anew", async () => {
    const id = await createUser("paused", "Paused-pw1");
    const session = await server.login("paused", "Paused-pw1");
    const info = () => server.call("GET", "/api/blade-auth/oauth/user-info", session.access_token);
    assert.equal((await info()).statusCode, 200);

    const res = await server.call("POST", "/api/blade-user/update", admin, { id, status: 0 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await info()).statusCode, 401, "the old token is refused");
    assert.equal((await refresh(session.refresh_token)).statusCode, 400, "refresh refused");
    await assert.rejects(server.login("paused", "Paused-pw1"), /login of paused failed/);
    // The captcha grant, with the right code, is refused just the same.
    const captcha = (await server.inject({ method: "GET", url: "/api/blade-auth/oauth/captcha" })).json();
    const [stored] = await server.db.query<{ code: string }>(
      "select code from auth_captcha where captcha_key = $1",
      [captcha.key],
    );
    const byCaptcha = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: {
        tenantId: "000000",
        username: "paused",
        password: md5Hex("Paused-pw1"),
        grant_type: "captcha",
        scope: "all",
      },
      headers: {
        authorization: BASIC,
        "tenant-id": "000000",
        "captcha-key": captcha.key,
        "captcha-code": stored!.code,
      },
    });
    assert.equal(byCaptcha.statusCode, 400, byCaptcha.body);
    assert.match(byCaptcha.body, /账号已被停用/);

    const enable = await server.call("POST", "/api/blade-user/submit", admin, { id, status: 1 });
    assert.equal(enable.statusCode, 200, enable.body);
    assert.equal((await info()).statusCode, 401, "the ended session stays ended");
    assert.equal((await refresh(session.refresh_token)).statusCode, 400);
    const again = await server.login("paused", "Paused-pw1");
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", again.access_token)).statusCode,
      200,
    );
  });

  test("user/submit with status 0 disables too", async () => {
    const id = await createUser("halted", "Halted-pw1");
    const res = await server.call("POST", "/api/blade-user/submit", admin, { id, status: 0 });
    assert.equal(res.statusCode, 200, res.body);
    await assert.rejects(server.login("halted", "Halted-pw1"), /login of halted failed/);
  });

  test("a status outside the dictionary and one's own account are refused", async () => {
    const id = await createUser("oddity", "Oddity-pw1");
    const odd = await server.call("POST", "/api/blade-user/update", admin, { id, status: 7 });
    assert.equal(odd.statusCode, 400, odd.body);
    assert.match(odd.json().msg, /status/);

    const [self] = await page("account=admin");
    const own = await server.call("POST", "/api/blade-user/update", admin, { id: self!.id, status: 0 });
    assert.equal(own.statusCode, 403, own.body);
    assert.equal(own.json().msg, "不能禁用本账号!");
  });
});

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
// Random per run: production judges every secret's strength before it starts.
const SECRETS = {
  JWT_SECRET: randomBytes(32).toString("base64url"),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
  CLIENT_SECRET: randomBytes(18).toString("base64url"),
};
const CLIENT = `Basic ${Buffer.from(`saber:${SECRETS.CLIENT_SECRET}`).toString("base64")}`;

/** A real server process on `databaseUrl`; resolves once it answers. */
async function serverProcess(databaseUrl: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: {
      ...process.env,
      ...SECRETS,
      DATABASE_URL: databaseUrl,
      ADMIN_PASSWORD: randomBytes(18).toString("base64url"),
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      CONSOLE_DIST: "/nonexistent",
      GATEWAY_EMBEDDED: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start:\n${output}`);
}

test("disabled on one server process, refused within moments on the other", {
  skip: !process.env.TEST_DATABASE_URL && "needs TEST_DATABASE_URL (two processes share a server)",
  timeout: 180_000,
}, async () => {
  const server = await startTestServer();
  const processes: ChildProcess[] = [];
  try {
    const [one, two] = await Promise.all([
      serverProcess(server.databaseUrl!),
      serverProcess(server.databaseUrl!),
    ]);
    processes.push(one.child, two.child);
    const token = (base: string, query: Record<string, string>) =>
      fetch(
        `${base}/api/blade-auth/oauth/token?${new URLSearchParams({ tenantId: "000000", scope: "all", ...query })}`,
        {
          method: "POST",
          headers: { authorization: CLIENT, "tenant-id": "000000" },
        },
      );
    const signIn = async (base: string, account: string, password: string) => {
      const res = await token(base, {
        username: account,
        password: md5Hex(password),
        grant_type: "password",
      });
      return {
        status: res.status,
        body: (await res.json()) as { access_token: string; refresh_token: string },
      };
    };
    const call = (base: string, url: string, bearer: string, body?: unknown) =>
      fetch(`${base}${url}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: CLIENT,
          "blade-auth": `bearer ${bearer}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const admin = await signIn(one.base, "admin", ADMIN_PASSWORD);
    assert.equal(admin.status, 200);
    const created = await call(one.base, "/api/blade-user/submit", admin.body.access_token, {
      account: "roamer",
      password: md5Hex("Roamer-pw1"),
      name: "roamer",
      realName: "roamer",
      roleId: "2",
      deptId: "1",
    });
    assert.equal(created.status, 200);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const session = await signIn(two.base, "roamer", "Roamer-pw1");
    assert.equal(session.status, 200);
    // The session is in the second process's cache before the change.
    const info = () => call(two.base, "/api/blade-auth/oauth/user-info", session.body.access_token);
    assert.equal((await info()).status, 200);
    assert.equal((await info()).status, 200);

    const disable = await call(one.base, "/api/blade-user/update", admin.body.access_token, {
      id,
      status: 0,
    });
    assert.equal(disable.status, 200);
    // The other process hears of it through the database's change channel (LISTEN/NOTIFY), which
    // may land just after a request already on its way: refused within moments, never on a timer.
    const deadline = Date.now() + 2_000;
    let status = (await info()).status;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await info()).status;
    }
    assert.equal(status, 401, "requests on the other process are refused within 2 s");
    const refreshed = await token(two.base, {
      grant_type: "refresh_token",
      refresh_token: session.body.refresh_token,
    });
    assert.equal(refreshed.status, 400, "refresh refused");
    assert.notEqual((await signIn(two.base, "roamer", "Roamer-pw1")).status, 200, "password grant refused");
  } finally {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
          }),
      ),
    );
    await server.close();
  }
});
