import assert from "node:assert/strict";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ConfigError, loadConfig } from "./config.ts";

const secret = "p".repeat(40);
const dataKey = "d".repeat(40);

test("production refuses to start without its secrets", async () => {
  await assert.rejects(loadConfig({ NODE_ENV: "production" }), ConfigError);
  await assert.rejects(loadConfig({ DATABASE_URL: "postgres://x/y", JWT_SECRET: secret }), /ADMIN_PASSWORD/);
  await assert.rejects(
    loadConfig({
      NODE_ENV: "production",
      JWT_SECRET: "short",
      DATA_ENCRYPTION_KEY: dataKey,
      ADMIN_PASSWORD: "x",
    }),
    /at least 32/,
  );
  const ok = await loadConfig({
    NODE_ENV: "production",
    JWT_SECRET: secret,
    DATA_ENCRYPTION_KEY: dataKey,
    DATA_ENCRYPTION_KEY_PREVIOUS: `${"o".repeat(40)},${"q".repeat(40)}`,
    ADMIN_PASSWORD: "Str0ng!",
  });
  assert.equal(ok.production, true);
  assert.equal(ok.dataKey, dataKey);
  assert.deepEqual(ok.previousDataKeys, ["o".repeat(40), "q".repeat(40)]);
});

test("production refuses to start without its own data-encryption key", async () => {
  const base = { NODE_ENV: "production", JWT_SECRET: secret, ADMIN_PASSWORD: "Str0ng!" };
  await assert.rejects(loadConfig(base), /needs DATA_ENCRYPTION_KEY;/);
  await assert.rejects(
    loadConfig({ ...base, DATA_ENCRYPTION_KEY: "short" }),
    /DATA_ENCRYPTION_KEY must be at least 32/,
  );
  await assert.rejects(loadConfig({ ...base, DATA_ENCRYPTION_KEY: secret }), /must differ from JWT_SECRET/);
});

test("the embedded default generates its signing key once and keeps it in DATA_DIR", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-config-"));
  const first = await loadConfig({ DATA_DIR: dir });
  const second = await loadConfig({ DATA_DIR: dir });
  assert.equal(first.production, false);
  assert.equal(first.adminPassword, "admin");
  assert.ok(first.jwtSecret.length >= 32);
  assert.equal(second.jwtSecret, first.jwtSecret);
  const stored = JSON.parse(await readFile(path.join(dir, "secrets.json"), "utf8"));
  assert.equal(stored.jwtSecret, first.jwtSecret);
  assert.ok(first.dataKey.length >= 32 && first.dataKey !== first.jwtSecret);
  assert.equal(second.dataKey, first.dataKey);
  assert.equal(stored.dataKey, first.dataKey);
});

test("a data directory from before the data key keeps its signing key and gains a data key", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-config-"));
  await writeFile(path.join(dir, "secrets.json"), JSON.stringify({ jwtSecret: secret }));
  const config = await loadConfig({ DATA_DIR: dir });
  assert.equal(config.jwtSecret, secret);
  assert.ok(config.dataKey.length >= 32 && config.dataKey !== secret);
  assert.equal((await loadConfig({ DATA_DIR: dir })).dataKey, config.dataKey);
});

test("PORT must be a port", async () => {
  await assert.rejects(loadConfig({ PORT: "http", JWT_SECRET: secret }), /PORT/);
});
