import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { md5Hex } from "../src/modules/auth/password.ts";
import { BASIC, freePort } from "./helpers.ts";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

/** Starts the real server process and waits until it answers. */
async function start(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      NODE_ENV: "",
      PORT: String(port),
      LOG_LEVEL: "warn",
      CONSOLE_DIST: "/nonexistent",
      DEMO_DATA: "0",
      GATEWAY_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, base, output: () => output };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start:\n${output}`);
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });

test("a restart on the same DATA_DIR keeps the data, the signing key and the sessions", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-data-"));
  const first = await start({ DATA_DIR: dataDir });
  const login = await fetch(
    `${first.base}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5Hex("admin")}&grant_type=password&scope=all`,
    { method: "POST", headers: { authorization: BASIC, "tenant-id": "000000" } },
  );
  assert.equal(login.status, 200);
  const { access_token } = (await login.json()) as { access_token: string };
  assert.equal(await stop(first.child), 0, "SIGTERM ends the server cleanly");

  const second = await start({ DATA_DIR: dataDir });
  const info = await fetch(`${second.base}/api/blade-auth/oauth/user-info`, {
    headers: { authorization: BASIC, "blade-auth": `bearer ${access_token}` },
  });
  assert.equal(info.status, 200, second.output());
  assert.equal(((await info.json()) as { data: { account: string } }).data.account, "admin");
  assert.equal(await stop(second.child), 0);
});

test("production mode without secrets refuses to start and says why", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-prod-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: "",
      ADMIN_PASSWORD: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 1);
  assert.match(output, /JWT_SECRET and ADMIN_PASSWORD/);
});

test("the embedded demo seeds its site and its simulated fleet reports live readings through the gateway", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-demo-"));
  const demo = await start({ DATA_DIR: dataDir, DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" });
  try {
    const login = await fetch(
      `${demo.base}/api/blade-auth/oauth/token?tenantId=100001&username=admin&password=${md5Hex("admin")}&grant_type=password&scope=all`,
      { method: "POST", headers: { authorization: BASIC, "tenant-id": "100001" } },
    );
    assert.equal(login.status, 200, demo.output());
    const { access_token } = (await login.json()) as { access_token: string };
    const call = async (url: string) => {
      const res = await fetch(`${demo.base}/api/blade-pms/${url}`, {
        headers: { authorization: BASIC, "blade-auth": `bearer ${access_token}` },
      });
      return ((await res.json()) as { data: { total: number; records: Record<string, unknown>[] } }).data;
    };
    let readings = { total: 0, records: [] as Record<string, unknown>[] };
    for (let i = 0; i < 120 && readings.total < 150; i++) {
      await new Promise((r) => setTimeout(r, 500));
      readings = await call("metercurrentdata/list?size=200");
    }
    assert.ok(readings.total >= 150, `only ${readings.total} of 200 meters read:\n${demo.output()}`);
    const electric = readings.records.find((r) => r.energyType === 1 && r.totalValue !== null);
    assert.ok(electric, "an electric meter's energy register arrived");
    assert.match(String(electric.totalValue), /^\d+\.\d{2}$/);
    const online = await call("collector/page?size=20&onlineStatus=1");
    assert.equal(online.total, 10, "all ten DTUs registered");
  } finally {
    assert.equal(await stop(demo.child), 0, "SIGTERM ends the server, gateway and fleet cleanly");
  }
});
