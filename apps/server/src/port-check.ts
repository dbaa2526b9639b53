import net from "node:net";
import { ConfigError } from "./config.ts";

/** A port this process is about to listen on, and the setting that chose it. */
export interface PortToCheck {
  setting: string;
  host: string;
  port: number;
  /** What listens there, for the message. */
  purpose: string;
}

/**
 * Binds and releases each port before anything is migrated or stored, so that a port already in
 * use stops the start with a message naming its setting instead of an EADDRINUSE after the
 * database work. Port 0 (any free port) needs no check.
 */
export async function checkPortsFree(ports: readonly PortToCheck[]): Promise<void> {
  for (const wanted of ports) {
    if (wanted.port === 0) continue;
    const problem = await bindProblem(wanted.host, wanted.port);
    if (problem) throw portError(wanted, problem);
  }
}

/** The message for a port that cannot be listened on (also for a listen that fails later). */
export function portError(wanted: PortToCheck, code: string | undefined): ConfigError {
  const why =
    code === "EADDRINUSE"
      ? "is already in use"
      : code === "EACCES"
        ? "may not be opened by this user"
        : code === "EADDRNOTAVAIL"
          ? "names an address this machine does not have"
          : `cannot be listened on (${code ?? "unknown error"})`;
  return new ConfigError(
    `${wanted.setting}=${wanted.port} (${wanted.purpose}, on ${wanted.host}) ${why}; stop what holds it or set ${wanted.setting} to a free port.`,
  );
}

function bindProblem(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    // exclusive: a cluster worker's shared handle would hide a port held by another process.
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
