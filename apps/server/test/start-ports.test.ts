import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import pg from "pg";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

/** Something else listening on a port of the loopback address. */
async function occupy(): Promise<{ port: number; close(): Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen({ host: "127.0.0.1", port: 0 }, resolve));
  const { port } = holder.address() as net.AddressInfo;
  return { port, close: () => new Promise((resolve) => holder.close(() => resolve())) };
}

/**
 * A database nobody has migrated: a fresh one on the PostgreSQL server (TEST_DATABASE_URL), else a
 * fresh PGlite data directory. `untouched` says whether a start left it without any schema.
 */
async function freshDatabase(): Promise<{
  env: Record<string, string>;
  untouched(): Promise<boolean>;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-ports-"));
  if (!serverUrl) {
    return {
      env: { DATABASE_URL: "", NODE_ENV: "", DATA_DIR: dataDir, DEMO_DATA: "0" },
      // The embedded start keeps its generated secrets there first; a database would add its files.
      untouched: async () => (await readdir(dataDir)).every((f) => f === "secrets.json"),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `meterline_t_${randomBytes(6).toString("hex")}`;
  const admin = async <T>(url: string, fn: (c: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  await admin(serverUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      JWT_SECRET: "Jq3v8Lr1Wc6Yt0Nz4Hp9Dk2Ms7Gb5FxAe8Ct3Bu",
      DATA_ENCRYPTION_KEY: "Uy5Te0Qa8Wm2Rk7Zn4Lc9Vb3Px6Sd1Hg",
      CLIENT_SECRET: "Ko4Mi9Ju3Nh8Bg2Vf",
      ADMIN_PASSWORD: "Xe7#Rb2!Lm9@Tq4$",
    },
    untouched: () =>
      admin(url.toString(), async (c) => {
        const { rows } = await c.query(
          "select count(*)::int as n from pg_tables where schemaname = 'public'",
        );
        return rows[0].n === 0;
      }),
    drop: async () => {
      await admin(serverUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the server process and waits for it to end (it must, with the port taken). */
function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: { ...process.env, LOG_LEVEL: "warn", CONSOLE_DIST: "/nonexistent", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = setTimeout(() => child.kill("SIGKILL"), 120_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(deadline);
      resolve({ code, output });
    }),
  );
}

test("an HTTP port in use stops the start before any migration, naming PORT", async () => {
  const taken = await occupy();
  const database = await freshDatabase();
  try {
    const { code, output } = await runServer({
      ...database.env,
      PORT: String(taken.port),
      GATEWAY_PORT: "0",
    });
    assert.equal(code, 1, output);
    assert.match(output, new RegExp(`PORT=${taken.port} \\(HTTP, on 127\\.0\\.0\\.1\\) is already in use`));
    assert.match(output, /set PORT to a free port/);
    assert.doesNotMatch(output, /EADDRINUSE|at .*\.ts:\d+/, "a message, not a stack");
    assert.equal(await database.untouched(), true, "nothing was migrated");
  } finally {
    await taken.close();
    await database.drop();
  }
});

test("the embedded gateway's port in use stops the start before any migration, naming GATEWAY_PORT", async () => {
  const taken = await occupy();
  const database = await freshDatabase();
  try {
    const { code, output } = await runServer({
      ...database.env,
      PORT: "0",
      GATEWAY_EMBEDDED: "1",
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_PORT: String(taken.port),
    });
    assert.equal(code, 1, output);
    assert.match(output, new RegExp(`GATEWAY_PORT=${taken.port} \\(the embedded meter gateway's DTU port`));
    assert.match(output, /already in use; stop what holds it or set GATEWAY_PORT to a free port/);
    assert.equal(await database.untouched(), true, "nothing was migrated");
  } finally {
    await taken.close();
    await database.drop();
  }
});
