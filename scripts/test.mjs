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
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...files], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
