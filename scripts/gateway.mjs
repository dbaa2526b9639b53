// `npm run gateway`: on the registry in PostgreSQL when DATABASE_URL is set, else the stand-alone
// gateway with a JSON meter directory (--directory). Arguments and signals pass straight through.
import { spawn } from "node:child_process";

const entry = process.env.DATABASE_URL ? "apps/server/src/gateway-process.ts" : "apps/gateway/src/main.ts";
const child = spawn(process.execPath, ["--import", "tsx", entry, ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
