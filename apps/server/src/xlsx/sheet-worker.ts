import { parentPort } from "node:worker_threads";
import type { SheetBounds } from "./sheet-bounds.ts";
import { readSheet } from "./stream-rows.ts";

/** The worker side of `readWorkbook`: it stays up and reads one file at a time. */
parentPort!.on(
  "message",
  async (job: { file: Uint8Array; bounds: SheetBounds; requiredHeaders: string[] }) => {
    parentPort!.postMessage(await readSheet(job.file, job.bounds, job.requiredHeaders));
  },
);
