/**
 * The fleet-scale bench's child processes: each started through `sh` so its open-file limit can be
 * raised to the hard limit first (a gateway or the fleet holds thousands of sockets), its last output
 * kept so a child that dies fails the bench with what it said; and what /proc tells of each.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import net from "node:net";

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  /** Its last lines of output. */
  tail(): string;
  /** Resolves with the exit code when it ends. */
  exited: Promise<number | null>;
  /** Rejects when it ends before `expectExit()` was called. */
  died: Promise<never>;
  expectExit(): void;
}

const RAISE_FILES = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"';

export function startChild(
  name: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ipc = false,
): Child {
  const proc = spawn("sh", ["-c", RAISE_FILES, command, ...args], {
    env,
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  let expected = false;
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const died = exited.then((code) => {
    if (expected) return new Promise<never>(() => {});
    throw new Error(`${name} (pid ${proc.pid}) exited with ${code}; its last output:\n${lines.join("\n")}`);
  });
  // Observed here so an early death is never an unhandled rejection; callers race it.
  died.catch(() => {});
  return {
    name,
    proc,
    pid: proc.pid!,
    tail: () => lines.join("\n"),
    exited,
    died,
    expectExit: () => {
      expected = true;
    },
  };
}

/** A port nothing listens on now, drawn where outgoing connections never take one. */
export { freePort } from "../scripts/free-port.mjs";

/** Resolves once something accepts connections on the port (within the deadline). */
export async function listening(port: number, deadlineMs: number, died: Promise<never>): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  const tryOnce = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  while (Date.now() < deadline) {
    if (await Promise.race([tryOnce(), died])) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`nothing listens on port ${port} after ${deadlineMs} ms`);
}

/** Resident set size in bytes (VmRSS), 0 when the process is gone. */
export async function rssOf(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

const TICK_SECONDS = 0.01;

/** CPU seconds (user + system) the process has used. */
export async function cpuOf(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
  } catch {
    return 0;
  }
}

/** The machine's busy and total CPU ticks since boot (all cores), from /proc/stat. */
export async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0]!;
  const values = line.split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** Samples each process's RSS every second: the peak so far and the latest. */
export class RssSampler {
  readonly peak = new Map<number, number>();
  readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pids: readonly number[]) {}

  start(): this {
    const sample = async () => {
      for (const pid of this.pids) {
        const rss = await rssOf(pid);
        if (rss === 0) continue;
        this.last.set(pid, rss);
        this.peak.set(pid, Math.max(rss, this.peak.get(pid) ?? 0));
      }
    };
    void sample();
    this.timer = setInterval(() => void sample(), 1000);
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
