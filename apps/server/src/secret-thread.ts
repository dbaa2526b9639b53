import { Worker } from "node:worker_threads";
import type { ConfiguredSecrets } from "./secret-strength.ts";

/**
 * Judges the configured secrets on a thread of its own: loading zxcvbn's word lists and rating long
 * secrets takes a few hundred ms of CPU, which then runs beside the database connection, the
 * migrations check and the route registration instead of before them. Resolves to the refusal's
 * message or undefined; a thread that fails counts as a refusal, never as a pass.
 */
export function judgeSecretsOnThread(secrets: ConfiguredSecrets): Promise<string | undefined> {
  return new Promise((resolve) => {
    const { production, jwtSecret, dataKey, adminPassword, clientSecret } = secrets;
    const worker = new Worker(new URL("./secret-worker.mjs", import.meta.url), {
      workerData: { production, jwtSecret, dataKey, adminPassword, clientSecret },
    });
    let verdict: { weak: string | undefined } | undefined;
    worker.once("message", (message: { weak: string | undefined }) => {
      verdict = message;
    });
    worker.once("error", (error) => {
      verdict ??= { weak: `secrets could not be checked (${error.message})` };
    });
    worker.once("exit", () => resolve(verdict ? verdict.weak : "secrets could not be checked"));
  });
}
