import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { openDb } from "../src/db/client.ts";
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
  // A deadline, not a timing: a busy machine may take a minute to migrate a fresh database.
  for (let i = 0; i < 600; i++) {
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

test("production refuses a weak administrator password before it stores anything derived from it", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-weak-"));
  const port = await freePort();
  // The secrets' strength is judged on another thread while the server starts: the refusal must
  // still come, and come before the administrator is created with that password.
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      CONSOLE_DIST: "/nonexistent",
      JWT_SECRET: "Jq3v8Lr1Wc6Yt0Nz4Hp9Dk2Ms7Gb5FxAe8Ct3Bu",
      DATA_ENCRYPTION_KEY: "Uy5Te0Qa8Wm2Rk7Zn4Lc9Vb3Px6Sd1Hg",
      CLIENT_SECRET: "Ko4Mi9Ju3Nh8Bg2Vf",
      ADMIN_PASSWORD: "admin1234",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 1, output);
  assert.match(output, /ADMIN_PASSWORD is too easy to guess; refusing to start with it/);
  const db = await openDb({ dataDir });
  try {
    const admins = await db.query("select 1 from sys_user where account = 'admin'");
    assert.equal(admins.length, 0, "no administrator was created with the refused password");
  } finally {
    await db.close();
  }
});

/** Whether something accepts TCP connections at host:port. */
const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

test("the embedded gateway listens on the HTTP host, not on every interface", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-bind-"));
  const gatewayPort = await freePort();
  const server = await start({
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    GATEWAY_HOST: "",
    GATEWAY_PORT: String(gatewayPort),
  });
  try {
    assert.equal(await reachable("127.0.0.1", gatewayPort), true, server.output());
    // 127.0.0.2 is loopback too, but not the address asked for: a wildcard listener would answer it.
    assert.equal(await reachable("127.0.0.2", gatewayPort), false, "bound to 127.0.0.1 only");
  } finally {
    assert.equal(await stop(server.child), 0);
  }
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
  assert.match(output, /JWT_SECRET, DATA_ENCRYPTION_KEY, ADMIN_PASSWORD and CLIENT_SECRET/);
});

test("the embedded demo seeds its site, its fleet reports live readings, and a restart carries the registers on", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-demo-"));
  /** Starts the demo on `dataDir`, signs in as its administrator and answers a PMS reader. */
  const startDemo = async () => {
    const demo = await start({ DATA_DIR: dataDir, DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" });
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
    return { demo, call };
  };
  /** Electric registers by meter address, once at least `count` meters have been read since `after`. */
  const registers = async (
    call: Awaited<ReturnType<typeof startDemo>>["call"],
    after: string,
    count: number,
  ) => {
    let rows: Record<string, unknown>[] = [];
    for (let i = 0; i < 120; i++) {
      const page = await call(
        `metercurrentdata/list?size=200&energyType=1&readTime_datege=${encodeURIComponent(after)}`,
      );
      rows = page.records.filter((r) => r.totalValue !== null);
      if (rows.length >= count) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return new Map(rows.map((r) => [String(r.productCode), Number(r.totalValue)]));
  };

  const first = await startDemo();
  let before: Map<string, number>;
  try {
    let readings = { total: 0, records: [] as Record<string, unknown>[] };
    for (let i = 0; i < 120 && readings.total < 150; i++) {
      await new Promise((r) => setTimeout(r, 500));
      readings = await first.call("metercurrentdata/list?size=200");
    }
    assert.ok(readings.total >= 150, `only ${readings.total} of 210 meters read:\n${first.demo.output()}`);
    const electric = readings.records.find((r) => r.energyType === 1 && r.totalValue !== null);
    assert.ok(electric, "an electric meter's energy register arrived");
    assert.match(String(electric.totalValue), /^\d+\.\d{2}$/);
    let online = await first.call("collector/page?size=20&onlineStatus=1");
    for (let i = 0; i < 60 && online.total < 11; i++) {
      await new Promise((r) => setTimeout(r, 500));
      online = await first.call("collector/page?size=20&onlineStatus=1");
    }
    assert.equal(online.total, 11, "all ten DTUs and the 698 building's concentrator registered");
    before = await registers(first.call, "2000-01-01 00:00:00", 100);
  } finally {
    assert.equal(await stop(first.demo.child), 0, "SIGTERM ends the server, gateway and fleet cleanly");
  }

  // As if the site had been made ten days ago: its meters have been running since, server or not.
  const db = await openDb({ dataDir });
  await db.query("update sys_tenant set create_time = now() - interval '10 days' where tenant_id = '100001'");
  await db.close();
  const restartedAt = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
  const second = await startDemo();
  try {
    const after = await registers(second.call, restartedAt, 100);
    const compared = [...after].filter(([address]) => before.has(address));
    assert.ok(compared.length >= 50, `${compared.length} meters read in both runs`);
    for (const [address, total] of compared) {
      assert.ok(total >= before.get(address)!, `${address}: ${total} after ${before.get(address)}`);
    }
    // Ten days of use are on the registers, not the few seconds of the first run.
    const totals = [...after.values()].sort((a, b) => a - b);
    const median = totals[Math.floor(totals.length / 2)]!;
    assert.ok(median >= 1, `median register ${median} kWh after ten days`);
    const daily = await second.call("datadailydd/page?size=200");
    const negative = daily.records.filter((r) => Number(r.usage) < 0);
    assert.deepEqual(negative, [], "no day's usage went negative across the restart");
  } finally {
    assert.equal(await stop(second.demo.child), 0);
  }
});
