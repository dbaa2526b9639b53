import assert from "node:assert/strict";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ConfigError, loadConfig } from "./config.ts";

const secret = "p".repeat(40);
// Random-looking values of the kind `openssl rand -base64 48` prints.
const strongKey = "q7Vt9Lx2Rk4Pz8Wm3Nc6Hb1Jd5Fg0Ys7Ue2Ia9Ko4Tr6Qw8";
const dataKey = "Hn4Wc8Zp1Ks6Vb3Mx9Rt2Lq7Jf5Dg0Ye8Ua3Io6Tw1Pz4Nc";
const strongPassword = "Lantern-Orbit-Maple-41";
const clientSecret = "c3Xr8Pw1Zk6Nv9Tq2Lm5";
const production = {
  NODE_ENV: "production",
  JWT_SECRET: strongKey,
  DATA_ENCRYPTION_KEY: dataKey,
  ADMIN_PASSWORD: strongPassword,
};

test("production refuses to start without its secrets", async () => {
  await assert.rejects(loadConfig({ NODE_ENV: "production" }), ConfigError);
  await assert.rejects(
    loadConfig({ DATABASE_URL: "postgres://x/y", JWT_SECRET: strongKey }),
    /ADMIN_PASSWORD/,
  );
  await assert.rejects(
    loadConfig({ ...production, CLIENT_SECRET: clientSecret, JWT_SECRET: "short" }),
    /at least 32/,
  );
  await assert.rejects(loadConfig(production), /CLIENT_SECRET/);
  const ok = await loadConfig({
    ...production,
    CLIENT_SECRET: clientSecret,
    DATA_ENCRYPTION_KEY_PREVIOUS: `${"o".repeat(40)},${"q".repeat(40)}`,
  });
  assert.equal(ok.production, true);
  assert.equal(ok.clientSecret, clientSecret);
  assert.equal(ok.dataKey, dataKey);
  assert.deepEqual(ok.previousDataKeys, ["o".repeat(40), "q".repeat(40)]);
});

test("production refuses to start without its own, strong data-encryption key", async () => {
  const { DATA_ENCRYPTION_KEY: _, ...base } = { ...production, CLIENT_SECRET: clientSecret };
  await assert.rejects(loadConfig(base), /needs DATA_ENCRYPTION_KEY;/);
  await assert.rejects(
    loadConfig({ ...base, DATA_ENCRYPTION_KEY: "short" }),
    /DATA_ENCRYPTION_KEY must be at least 32/,
  );
  await assert.rejects(
    loadConfig({ ...base, DATA_ENCRYPTION_KEY: strongKey }),
    /must differ from JWT_SECRET/,
  );
  await assert.rejects(loadConfig({ ...base, DATA_ENCRYPTION_KEY: "d".repeat(40) }), /DATA_ENCRYPTION_KEY/);
});

test("production refuses a guessable signing key", async () => {
  for (const weak of [
    secret,
    "ab".repeat(20),
    "abcdefghijklmnopqrstuvwxyz0123456789",
    `saber_secret${strongKey}`,
    "1234567890".repeat(4),
  ]) {
    await assert.rejects(
      loadConfig({ ...production, CLIENT_SECRET: clientSecret, JWT_SECRET: weak }),
      /JWT_SECRET/,
      weak,
    );
  }
});

test("production refuses a weak or default administrator password", async () => {
  for (const weak of ["admin", "123456", "password", "admin1234", "Str0ng!", "Password1", "meterline"]) {
    await assert.rejects(
      loadConfig({ ...production, CLIENT_SECRET: clientSecret, ADMIN_PASSWORD: weak }),
      /ADMIN_PASSWORD/,
      weak,
    );
  }
});

test("production refuses the published client secret and weak ones", async () => {
  for (const weak of ["saber_secret", "x".repeat(24), "short"]) {
    await assert.rejects(loadConfig({ ...production, CLIENT_SECRET: weak }), /CLIENT_SECRET/, weak);
  }
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

test("API_LOG picks which calls the API log keeps; writes, errors and slow calls by default", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-config-"));
  const byDefault = (await loadConfig({ DATA_DIR: dir })).apiLog;
  assert.deepEqual(
    [byDefault.writes, byDefault.errors, byDefault.slow, byDefault.all, byDefault.slowMs],
    [true, true, true, false, 1000],
  );
  const errorsOnly = (await loadConfig({ DATA_DIR: dir, API_LOG: "errors", API_LOG_SLOW_MS: "250" })).apiLog;
  assert.deepEqual(
    [errorsOnly.writes, errorsOnly.errors, errorsOnly.slow, errorsOnly.slowMs],
    [false, true, false, 250],
  );
  const none = (await loadConfig({ DATA_DIR: dir, API_LOG: "none" })).apiLog;
  assert.ok(!none.writes && !none.errors && !none.slow && !none.all);
  await assert.rejects(loadConfig({ DATA_DIR: dir, API_LOG: "reads" }), /API_LOG takes/);
  await assert.rejects(loadConfig({ DATA_DIR: dir, API_LOG_BUFFER: "0" }), /API_LOG_BUFFER/);
});

test("GATEWAY_PRICED_ACCOUNTS sizes the gateway's memory of priced accounts; anything but a count is refused", async () => {
  const site = { ...production, CLIENT_SECRET: clientSecret };
  const remembered = async (value?: string) =>
    (await loadConfig(value === undefined ? site : { ...site, GATEWAY_PRICED_ACCOUNTS: value }))
      .pricedAccounts;
  assert.equal(await remembered(), 50_000, "the default");
  assert.equal(await remembered("120000"), 120_000);
  assert.equal(await remembered("0"), 0, "none");
  for (const wrong of ["-1", "1.5", "lots", "1e5"])
    await assert.rejects(remembered(wrong), /GATEWAY_PRICED_ACCOUNTS must be a whole number ≥ 0/, wrong);
});
