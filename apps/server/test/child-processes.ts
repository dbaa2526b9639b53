import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The entry points multi-process tests start: the API server and the registry gateway. */
export const SERVER_ENTRY = fileURLToPath(new URL("../src/main.ts", import.meta.url));
export const GATEWAY_ENTRY = fileURLToPath(new URL("../src/gateway-process.ts", import.meta.url));

/** A process a test started, with the tail of its output for failure messages. */
export interface Child {
  process: ChildProcess;
  output(): string;
}

export function run(entry: string, env: Record<string, string>): Child {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, NODE_ENV: "", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { process: child, output: () => output.slice(-4000) };
}

export const exited = (child: Child) =>
  child.process.exitCode !== null || child.process.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.process.once("exit", () => resolve()));

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. */
export async function stop(child: Child | undefined, graceMs = 5_000): Promise<void> {
  if (!child) return;
  const done = exited(child);
  child.process.kill("SIGTERM");
  const timer = setTimeout(() => child.process.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}

export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
