import { parentPort, workerData } from "node:worker_threads";
import type { SheetBounds } from "./sheet-bounds.ts";
import { readSheet } from "./stream-rows.ts";

/** The worker side of `readWorkbook`: one file in, one result out, then the thread ends. */
const job = workerData as { file: Uint8Array; bounds: SheetBounds; requiredHeaders: string[] };
parentPort!.postMessage(await readSheet(job.file, job.bounds, job.requiredHeaders));
