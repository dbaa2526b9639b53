// `npm start`: runs the compiled server in this very process, so that signals reach it directly and
// no transpiler or wrapper process stays around. Builds first what is missing: the console when it
// has no build, the server when it has none or its sources are newer (about a second).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compiledEntry } from "./compiled.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

if (!process.env.CONSOLE_DIST && !existsSync(`${root}apps/console/dist/index.html`)) {
  console.log("Building the console (first start only)…");
  const build = spawnSync("npm", ["run", "build", "-w", "@meterline/console"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import(await compiledEntry("main"));
