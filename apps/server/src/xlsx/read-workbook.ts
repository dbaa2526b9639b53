import { Worker } from "node:worker_threads";
import { ApiError, badRequest } from "../contract/errors.ts";
import {
  type HeaderSpec,
  refusalMessage,
  type SheetBounds,
  type SheetData,
  type SheetsResult,
} from "./sheet-bounds.ts";

/** Parses at once; more wait their turn, so a burst of uploads cannot take every core. */
const MAX_PARALLEL = 2;
/** Heap of one parsing thread: a sheet within the bounds needs a fraction of it. */
const WORKER_HEAP_MB = 256;
/** A file within the bounds parses in seconds even on a busy machine; one still parsing by then is refused. */
const DEADLINE_MS = 120_000;

/**
 * Parsing threads are kept between uploads: starting one loads the Excel reader, which costs more
 * than reading a sheet. A thread that ran out of time or memory is ended and replaced.
 */
const idle: Worker[] = [];
let running = 0;
const waiting: (() => void)[] = [];

function startWorker(): Worker {
  const worker = new Worker(new URL("./sheet-worker.mjs", import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  // An idle thread never keeps the process alive.
  worker.unref();
  worker.on("error", () => {});
  worker.once("exit", () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}

/** Starts a parsing thread ahead of the first upload, so that upload does not wait for it. */
export function warmSheetReader(): void {
  if (idle.length === 0 && running === 0) idle.push(startWorker());
}

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
  requiredHeaders: HeaderSpec = [],
): Promise<SheetData | null> {
  const [sheet = null] = await readWorkbookSheets(file, bounds, [requiredHeaders]);
  return sheet;
}

/**
 * Several kinds of worksheet from one upload, each the first carrying its spec's headers (null
 * when none does), read on a worker thread within the bounds as `readWorkbook` reads one.
 */
export async function readWorkbookSheets(
  file: Buffer,
  bounds: SheetBounds,
  specs: readonly HeaderSpec[],
): Promise<(SheetData | null)[]> {
  const result = await turn(() => parseOnWorker(file, bounds, specs));
  if (!result.ok) throw badRequest(refusalMessage(result.refusal));
  return result.sheets;
}

function parseOnWorker(file: Buffer, bounds: SheetBounds, specs: readonly HeaderSpec[]) {
  const worker = idle.pop() ?? startWorker();
  worker.ref();
  return new Promise<SheetsResult>((resolve, reject) => {
    const tooComplex = () =>
      new ApiError(
        400,
        `file: 文件内容过于复杂, 未能在 ${DEADLINE_MS / 1000} 秒和 ${WORKER_HEAP_MB}MB 内存内读完`,
      );
    const done = () => {
      clearTimeout(deadline);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
    };
    const onMessage = (result: SheetsResult) => {
      done();
      worker.unref();
      idle.push(worker);
      resolve(result);
    };
    // Out of memory, or ended from outside: the thread is gone and the file refused.
    const onExit = () => {
      done();
      reject(tooComplex());
    };
    const deadline = setTimeout(() => {
      done();
      void worker.terminate();
      reject(tooComplex());
    }, DEADLINE_MS);
    worker.on("message", onMessage);
    worker.on("exit", onExit);
    worker.postMessage({ file: new Uint8Array(file), bounds, specs: specs.map((spec) => [...spec]) });
  });
}
