import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { startTestServer, type TestServer } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** What the server and its tests are made of; the rest of the repository plays no part. */
const SOURCES = [
  "packages",
  "apps/server",
  "apps/gateway",
  "apps/simulator",
  // The tests' helpers draw their servers' ports with it.
  "scripts/free-port.mjs",
  "scripts/free-port.d.mts",
  "package.json",
  "tsconfig.base.json",
];
const WORKSPACES: Record<string, string> = {
  contracts: "packages/contracts",
  billing: "packages/billing",
  analytics: "packages/analytics",
  protocols: "packages/protocols",
  "api-client": "packages/api-client",
  server: "apps/server",
  gateway: "apps/gateway",
  simulator: "apps/simulator",
};

/**
 * A copy of the repository's sources in which the workspace packages resolve to the copy itself and
 * every other dependency to the installed one: files written into it are what a developer's
 * checkout would hold after unpacking the zip.
 */
function repositoryCopy(): string {
  const copy = mkdtempSync(path.join(tmpdir(), "meterline-gen-"));
  const skipped = /[/\\](node_modules|data|dist)([/\\]|$)/;
  for (const source of SOURCES)
    cpSync(path.join(ROOT, source), path.join(copy, source), {
      recursive: true,
      filter: (from) => !skipped.test(path.relative(ROOT, from)),
    });
  mkdirSync(path.join(copy, "node_modules", "@meterline"), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, "node_modules")))
    if (entry !== "@meterline" && entry !== ".bin")
      symlinkSync(path.join(ROOT, "node_modules", entry), path.join(copy, "node_modules", entry));
  for (const [name, dir] of Object.entries(WORKSPACES))
    symlinkSync(path.join(copy, dir), path.join(copy, "node_modules", "@meterline", name));
  symlinkSync(path.join(ROOT, "apps/server/node_modules"), path.join(copy, "apps/server/node_modules"));
  return copy;
}

/** Runs node in the copy, and answers its exit code and output. */
function runNode(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env };
  // The copy migrates its own database: the run's template lacks what the generated files add.
  delete env.TEST_DB_TEMPLATE;
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

const count = (output: string, key: string) =>
  Number(new RegExp(`^# ${key} (\\d+)$`, "m").exec(output)?.[1] ?? -1);

describe("a generated resource, once unpacked into the repository", () => {
  let server: TestServer;
  let admin: string;
  let copy: string | undefined;

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(async () => {
    await server.close();
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  test("passes the table-driven suite of every plain resource", { timeout: 600_000 }, async () => {
    await server.db.query(
      `create table lab_widget (
         id bigint primary key, tenant_id varchar(12) not null default '000000',
         widget_code varchar(32) not null unique, widget_name varchar(64) not null,
         weight_grams integer, unit_price numeric(12, 2), made_on date, checked_at timestamptz,
         note text, is_deleted integer not null default 0,
         create_user bigint, create_dept bigint, create_time timestamptz not null default now(),
         update_user bigint, update_time timestamptz not null default now(), status integer not null default 1)`,
    );
    await server.db.query("comment on column lab_widget.widget_name is '部件名称'");
    const created = await server.call("POST", "/api/blade-develop/code/submit", admin, {
      datasourceId: "1",
      serviceName: "blade-lab",
      codeName: "部件",
      codeNameEn: "Widget",
      tableName: "lab_widget",
      tablePrefix: "lab_",
      searchFields: "widget_name,widget_code,made_on",
    });
    assert.equal(created.statusCode, 200, created.body);
    const zip = await server.call(
      "POST",
      `/api/blade-develop/code/gen-code?ids=${created.json().data.id}`,
      admin,
    );
    assert.equal(zip.statusCode, 200, zip.body.slice(0, 300));

    copy = repositoryCopy();
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    for (const [file, bytes] of Object.entries(files)) {
      const target = path.join(copy, file);
      assert.ok(target.startsWith(copy + path.sep), file);
      mkdirSync(path.dirname(target), { recursive: true });
      // Replaces the copy's own file (the registry of generated resources), never writes through it.
      rmSync(target, { force: true });
      writeFileSync(target, strFromU8(bytes));
    }
    const testFile = Object.keys(files).find((f) => f.endsWith(".test.ts"))!;
    // The definition and its words type-check with the rest of the contracts (a missing label would not).
    const typed = await runNode(copy, [
      path.join(ROOT, "node_modules/typescript/bin/tsc"),
      "-p",
      "packages/contracts",
    ]);
    assert.equal(typed.code, 0, typed.output.slice(-4000));
    const { code, output } = await runNode(copy, [
      "--import",
      "tsx",
      "--test",
      "--test-reporter=tap",
      testFile,
    ]);
    assert.equal(code, 0, output.slice(-4000));
    assert.equal(count(output, "fail"), 0, output.slice(-4000));
    // Every check of a writable resource ran (only the server-written-rows case is skipped).
    assert.ok(count(output, "pass") >= 8, output.slice(-4000));
    assert.equal(count(output, "skipped"), 1, output.slice(-4000));
    assert.match(output, /ok \d+ - widget/);
    assert.match(output, /ok \d+ - a duplicate unique value is refused/);
  });
});
