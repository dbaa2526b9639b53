import { parentPort } from "node:worker_threads";
import type { HeaderSpec, SheetBounds } from "./sheet-bounds.ts";
import { readSheets } from "./stream-rows.ts";

/** The worker side of `readWorkbook`: it stays up and reads one file at a time. */
parentPort!.on("message", async (job: { file: Uint8Array; bounds: SheetBounds; specs: HeaderSpec[] }) => {
  parentPort!.postMessage(await readSheets(job.file, job.bounds, job.specs));
});
