import { Worker } from "node:worker_threads";
import { ApiError, badRequest } from "../contract/errors.ts";
import { refusalMessage, type SheetBounds, type SheetData, type SheetResult } from "./sheet-bounds.ts";

/** Parses at once; more wait their turn, so a burst of uploads cannot take every core. */
const MAX_PARALLEL = 2;
/** Heap of one parsing thread: a sheet within the bounds needs a fraction of it. */
const WORKER_HEAP_MB = 256;
/** A file within the bounds parses in seconds even on a busy machine; one still parsing by then is refused. */
const DEADLINE_MS = 50_000;

let running = 0;
const waiting: (() => void)[] = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Reads an uploaded .xlsx on a worker thread within the bounds, so however the file is built the
 * event loop keeps answering other requests, and the thread's heap and time are capped. Answers
 * the first worksheet carrying `requiredHeaders` (null when none does); a file crossing a bound
 * is refused with a 400 naming `file` and the bound.
 */
export async function readWorkbook(
  file: Buffer,
  bounds: SheetBounds,
  requiredHeaders: readonly string[] = [],
): Promise<SheetData | null> {
  const result = await turn(() => parseOnWorker(file, bounds, requiredHeaders));
  if (!result.ok) throw badRequest(refusalMessage(result.refusal));
  return result.sheet;
}

function parseOnWorker(file: Buffer, bounds: SheetBounds, requiredHeaders: readonly string[]) {
  return new Promise<SheetResult>((resolve, reject) => {
    const worker = new Worker(new URL("./sheet-worker.mjs", import.meta.url), {
      workerData: { file: new Uint8Array(file), bounds, requiredHeaders: [...requiredHeaders] },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const tooComplex = () =>
      new ApiError(
        400,
        `file: 文件内容过于复杂, 未能在 ${DEADLINE_MS / 1000} 秒和 ${WORKER_HEAP_MB}MB 内存内读完`,
      );
    const deadline = setTimeout(() => {
      void worker.terminate();
      reject(tooComplex());
    }, DEADLINE_MS);
    worker.once("message", (result: SheetResult) => {
      clearTimeout(deadline);
      void worker.terminate();
      resolve(result);
    });
    worker.once("error", (error: Error & { code?: string }) => {
      clearTimeout(deadline);
      reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooComplex() : error);
    });
    // A thread that ends without a word (killed from outside) must not leave the request hanging.
    worker.once("exit", () => {
      clearTimeout(deadline);
      reject(tooComplex());
    });
  });
}
