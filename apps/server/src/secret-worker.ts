import { parentPort, workerData } from "node:worker_threads";
import { type ConfiguredSecrets, weakSecretProblem } from "./secret-strength.ts";

/** The thread side of `judgeSecretsOnThread`: one verdict, then the thread ends. */
parentPort!.postMessage({ weak: await weakSecretProblem(workerData as ConfiguredSecrets) });
