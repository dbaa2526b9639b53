// Runs node's test runner over the test files of the given folders (Node 20 has no glob in --test).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
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
/**
 * The server's tests start every test server from one migrated and seeded database made here
 * (apps/server/test/db-template.ts), on PGlite or on TEST_DATABASE_URL's server, whichever the run
 * tests on; it is removed again after the run.
 */
function withDbTemplate(run) {
  if (!files.some((file) => file.startsWith(`apps${path.sep}server${path.sep}`))) return run({});
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

const status = withDbTemplate((env) => {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", "--test-concurrency=1", ...files],
    {
      stdio: "inherit",
      env: { ...process.env, ...env },
    },
  );
  return result.status ?? 1;
});
process.exit(status);
