import assert from "node:assert/strict";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ConfigError, loadConfig } from "./config.ts";

const secret = "p".repeat(40);

test("production refuses to start without its secrets", async () => {
  await assert.rejects(loadConfig({ NODE_ENV: "production" }), ConfigError);
  await assert.rejects(loadConfig({ DATABASE_URL: "postgres://x/y", JWT_SECRET: secret }), /ADMIN_PASSWORD/);
  await assert.rejects(
    loadConfig({ NODE_ENV: "production", JWT_SECRET: "short", ADMIN_PASSWORD: "x" }),
    /at least 32/,
  );
  const ok = await loadConfig({ NODE_ENV: "production", JWT_SECRET: secret, ADMIN_PASSWORD: "Str0ng!" });
  assert.equal(ok.production, true);
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
});

test("PORT must be a port", async () => {
  await assert.rejects(loadConfig({ PORT: "http", JWT_SECRET: secret }), /PORT/);
});
