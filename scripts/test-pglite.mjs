// The server tests of what differs on embedded PGlite, run on PGlite whatever TEST_DATABASE_URL
// says: the database thread and its statement cache, migrations and scripts, the change feed that
// caches, live pages and the gateways' meter places follow, and the money and readings paths
// (batched readings priced exactly once) that PostgreSQL runs concurrently and PGlite one
// transaction at a time. Every other server test runs on either database alike (the
// same PostgreSQL engine), and the browser suites run their servers on PGlite throughout.
import { spawnSync } from "node:child_process";

const files = [
  "apps/server/src/db",
  "apps/server/test/live-push.test.ts",
  "apps/server/test/meter-places.test.ts",
  "apps/server/test/money.test.ts",
  "apps/server/test/readings-batch.test.ts",
  "apps/server/test/remembered-accounts.test.ts",
  "apps/server/test/reading-partitions.test.ts",
  "apps/server/test/search.test.ts",
  "apps/server/test/session-follows-changes.test.ts",
  "apps/server/test/shared-cache.test.ts",
];
const result = spawnSync(process.execPath, ["scripts/test.mjs", ...files], {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_URL: "" },
});
process.exit(result.status ?? 1);
