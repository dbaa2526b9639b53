// `npm start`: builds the console when its build is missing, then runs the server (which migrates,
// seeds and listens). Signals pass through so that SIGTERM shuts the server down cleanly.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const consoleIndex = `${root}apps/console/dist/index.html`;

if (!process.env.CONSOLE_DIST && !existsSync(consoleIndex)) {
  console.log("Building the console (first start only)…");
  const build = spawnSync("npm", ["run", "build", "-w", "@meterline/console"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ["--import", "tsx", `${root}apps/server/src/main.ts`], {
  cwd: process.cwd(),
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
