/**
 * One ingest process of bench/readings-scale.ts: writes the reads of its share of the meters, a
 * quarter-hour at a time across its meters (as a gateway sees them arrive), through the reading
 * log's multi-row insert, and answers its rows and time. Started by the benchmark with fork().
 */
import { openDb } from "../apps/server/src/db/client.ts";
import { nextId } from "../apps/server/src/db/ids.ts";
import {
  type ElectricRead,
  insertElectricReads,
} from "../apps/server/src/modules/metering/reading-log.db.ts";

export interface IngestRequest {
  url: string;
  tenantId: string;
  /** The meters of this process: ids firstMeter .. firstMeter + meters - 1. */
  firstMeter: number;
  meters: number;
  /** The first read's time (ms) and how many quarter-hours follow. */
  from: number;
  steps: number;
  stepMs: number;
  batch: number;
  /** Statements in flight at once in this process. */
  concurrency: number;
}

export interface IngestResult {
  rows: number;
  ms: number;
}

async function ingest(request: IngestRequest): Promise<IngestResult> {
  const db = await openDb({ databaseUrl: request.url });
  const { meters, firstMeter, batch } = request;
  let pending: ElectricRead[] = [];
  const inFlight = new Set<Promise<void>>();
  let rows = 0;
  const send = async (reads: ElectricRead[]) => {
    const done = insertElectricReads(db, reads).finally(() => inFlight.delete(done));
    inFlight.add(done);
    if (inFlight.size >= request.concurrency) await Promise.race(inFlight);
  };
  const start = performance.now();
  for (let step = 0; step < request.steps; step++) {
    const readTime = new Date(request.from + step * request.stepMs);
    for (let m = 0; m < meters; m++) {
      const meter = firstMeter + m;
      // A register that grows a quarter of a kWh per quarter-hour, a little more for some meters.
      const total = ((step * (25 + (meter % 7))) / 100).toFixed(2);
      pending.push({
        id: nextId(),
        tenantId: request.tenantId,
        meterId: String(meter),
        roomId: null,
        productCode: String(meter).padStart(12, "0"),
        readTime,
        registers: [total, null, null, null, null],
        balance: "100.00",
        switchStatus: 0,
        missing: "",
      });
      if (pending.length >= batch) {
        rows += pending.length;
        await send(pending);
        pending = [];
      }
    }
  }
  rows += pending.length;
  if (pending.length > 0) await send(pending);
  await Promise.all(inFlight);
  const ms = performance.now() - start;
  await db.close();
  return { rows, ms };
}

process.on("message", async (message: IngestRequest) => {
  process.send?.({ type: "result", ...(await ingest(message)) });
  process.disconnect();
});
process.send?.({ type: "ready" });
