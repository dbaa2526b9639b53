// Runs node's test runner over the test files of the given folders (Node 20 has no glob in --test).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";

const roots = process.argv.slice(2);
const files = roots
  .flatMap((root) =>
    statSync(root).isFile()
      ? [root]
      : readdirSync(root, { recursive: true, withFileTypes: true }).map((e) =>
          path.join(e.parentPath ?? e.path, e.name),
        ),
  )
  .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes("node_modules"))
  .sort();
if (files.length === 0) {
  console.error(`no test files under ${roots.join(", ")}`);
  process.exit(1);
}
/** Whether the run has test files in the folder `dir` (relative to the repository). */
function testsUnder(dir) {
  const folder = path.resolve(dir) + path.sep;
  return files.some((file) => path.resolve(file).startsWith(folder));
}

/**
 * The server's tests start every test server from one migrated and seeded database made here
 * (apps/server/test/db-template.ts): a PGlite dump, or a template database on TEST_DATABASE_URL's
 * server; it is removed again after the run.
 */
function withDbTemplate(run) {
  if (!testsUnder("apps/server")) return run({});
  const script = ["--import", "tsx", "apps/server/test/db-template.ts"];
  const made = spawnSync(process.execPath, [...script, "create"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (made.status !== 0) {
    console.error("could not make the test database template");
    process.exit(made.status ?? 1);
  }
  try {
    return run({ TEST_DB_TEMPLATE: made.stdout });
  } finally {
    spawnSync(process.execPath, [...script, "drop", made.stdout], { stdio: "inherit" });
  }
}

/** Browser suites copy their servers' data directories from templates made in this folder (e2e/harness.ts). */
function withE2eTemplates(run) {
  if (!testsUnder("e2e")) return run({});
  const folder = mkdtempSync(path.join(tmpdir(), "meterline-e2e-templates-"));
  try {
    return run({ E2E_DATA_TEMPLATES: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// Test files run side by side: each has a database of its own (a fresh in-memory PGlite, a copy of
// the run's template database on TEST_DATABASE_URL's server) and free ports of its own, and a file
// spends much of its time waiting on its database, a child process or a timer. Measured on two
// cores: the server and package tests take 11.8 minutes four at a time against 17.8 two at a time.
// Browser suites run two at a time: each drives a server and a Chromium that both compute, and
// four at a time left a demo suite stalled on two loaded cores. TEST_CONCURRENCY overrides.
const cores = availableParallelism();
const concurrency =
  Number(process.env.TEST_CONCURRENCY) || (testsUnder("e2e") ? Math.min(4, cores) : Math.min(8, 2 * cores));
// A browser test stalled on a page that never answers fails after this long (the longest, the
// accessibility sweep of every screen, takes a few minutes), and the run goes on to the others.
const timeout = testsUnder("e2e") ? ["--test-timeout=900000"] : [];

// TEST_REPORTER picks node's test reporter (a name or a module), e.g. to see durations per file;
// otherwise node's own choice (spec on a terminal, TAP in a log). A second reporter repeats every
// failed or cancelled test at the very end, where a log's kept tail shows it.
const mainReporter = process.env.TEST_REPORTER || (process.stdout.isTTY ? "spec" : "tap");
const summary = new URL("./failure-summary.mjs", import.meta.url).href;
const reporter = [
  `--test-reporter=${mainReporter}`,
  "--test-reporter-destination=stdout",
  `--test-reporter=${summary}`,
  "--test-reporter-destination=stdout",
];

const status = withDbTemplate((dbEnv) =>
  withE2eTemplates((e2eEnv) => {
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...timeout, ...reporter, ...files],
      {
        stdio: "inherit",
        env: { ...process.env, ...dbEnv, ...e2eEnv },
      },
    );
    return result.status ?? 1;
  }),
);
process.exit(status);
