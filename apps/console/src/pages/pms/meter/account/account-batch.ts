/**
 * Batches of account openings or closings: the meters go to the server in chunks, one call at a
 * time, each chunk all or nothing. Pure state, so the dialog only draws it.
 */

/** Meters per call: small enough that one refusal holds back few meters, large enough to be quick. */
export const CHUNK_SIZE = 20;

export type ChunkState = "waiting" | "running" | "done" | "failed";

export interface Chunk<R> {
  meterIds: string[];
  state: ChunkState;
  /** The server's words when it refused the chunk (or the transport failure). */
  reason?: string;
  /** What the server answered per meter when the chunk went through. */
  results?: R[];
}

export const chunksOf = <R>(meterIds: readonly string[], size = CHUNK_SIZE): Chunk<R>[] => {
  const chunks: Chunk<R>[] = [];
  for (let at = 0; at < meterIds.length; at += size)
    chunks.push({ meterIds: meterIds.slice(at, at + size), state: "waiting" });
  return chunks;
};

export interface BatchCounts {
  total: number;
  done: number;
  failed: number;
  waiting: number;
  /** Share of meters settled either way, 0–100. */
  percent: number;
}

/** Counts in meters, not chunks: the operator chose meters. */
export function countsOf<R>(chunks: readonly Chunk<R>[]): BatchCounts {
  let total = 0;
  let done = 0;
  let failed = 0;
  for (const chunk of chunks) {
    total += chunk.meterIds.length;
    if (chunk.state === "done") done += chunk.meterIds.length;
    if (chunk.state === "failed") failed += chunk.meterIds.length;
  }
  const percent = total === 0 ? 100 : Math.floor(((done + failed) * 100) / total);
  return { total, done, failed, waiting: total - done - failed, percent };
}

/** A retry sends the failed chunks again and leaves the others as they are. */
export const retryFailed = <R>(chunks: readonly Chunk<R>[]): Chunk<R>[] =>
  chunks.map((chunk) => (chunk.state === "failed" ? { meterIds: chunk.meterIds, state: "waiting" } : chunk));

/**
 * Sends the waiting chunks in order. `stopped` is asked before each call, so a cancel lets the
 * chunk in flight finish (its meters are settled on the server either way) and sends no more.
 * `update` receives every change, a new array each time.
 */
export async function runChunks<R>(
  start: readonly Chunk<R>[],
  send: (meterIds: string[]) => Promise<R[]>,
  describe: (error: unknown) => string,
  stopped: () => boolean,
  update: (chunks: Chunk<R>[]) => void,
): Promise<Chunk<R>[]> {
  let chunks = [...start];
  const put = (index: number, chunk: Chunk<R>) => {
    chunks = chunks.map((c, i) => (i === index ? chunk : c));
    update(chunks);
  };
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index];
    if (chunk?.state !== "waiting") continue;
    if (stopped()) break;
    put(index, { ...chunk, state: "running" });
    try {
      const results = await send(chunk.meterIds);
      put(index, { meterIds: chunk.meterIds, state: "done", results });
    } catch (error) {
      put(index, { meterIds: chunk.meterIds, state: "failed", reason: describe(error) });
    }
  }
  return chunks;
}
