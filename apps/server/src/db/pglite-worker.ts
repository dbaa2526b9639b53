/**
 * The embedded database's own thread: it owns the PGlite instance, so a long query or a large answer
 * keeps this thread busy while the HTTP event loop goes on serving.
 *
 * PGlite runs one statement at a time. Requests wait here in arrival order; while a transaction is
 * open only its own statements run, everyone else waits until it commits or rolls back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type CarriedError, carryError, type WorkerRequest } from "./pglite-messages.ts";
import { createPglite } from "./pglite-open.ts";
import { PreparedStatements } from "./pglite-prepared.ts";

const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread (see db/pglite-thread.ts)");
const { dataDir, startFrom } = workerData as { dataDir?: string; startFrom?: string };

const waiting: WorkerRequest[] = [];
let openTx: number | undefined;
let draining = false;

const fail = (id: number, error: CarriedError) => port.postMessage({ id, ok: false, error });

try {
  const db = await createPglite(dataDir, startFrom);
  // PGLITE_PREPARED=0 sends every statement through PGlite's own query() (for comparison).
  const prepared = process.env.PGLITE_PREPARED === "0" ? undefined : new PreparedStatements(db);

  const run = async (request: WorkerRequest): Promise<unknown[]> => {
    switch (request.kind) {
      case "query":
        return prepared
          ? await prepared.query(request.sql, request.params, openTx !== undefined)
          : (await db.query(request.sql, request.params as unknown[])).rows;
      case "script":
        try {
          return (await db.exec(request.sql)).flatMap((result) => result.rows);
        } catch (error) {
          // A script that failed inside its own `begin` leaves the one session in an aborted
          // transaction, which would refuse every later statement: end it here.
          await db.query("rollback").catch(() => undefined);
          throw error;
        }
      case "begin":
        await db.query("begin");
        openTx = request.tx;
        return [];
      case "commit":
      case "rollback":
        try {
          await db.query(request.kind);
        } finally {
          // A failed commit ends the transaction too (PostgreSQL rolls it back).
          openTx = undefined;
        }
        return [];
      case "close":
        await db.close();
        return [];
      case "listen":
        // PGlite calls back when the committing statement returns, so the notice is posted ahead
        // of that statement's reply and the main thread forgets before its caller sees the answer.
        await db.listen(request.channel, (payload) => port.postMessage({ notice: true, payload }));
        return [];
    }
  };

  const nextRunnable = (): WorkerRequest | undefined => {
    const at = openTx === undefined ? 0 : waiting.findIndex((r) => "tx" in r && r.tx === openTx);
    return at < 0 ? undefined : waiting.splice(at, 1)[0];
  };

  const drain = async () => {
    if (draining) return;
    draining = true;
    try {
      for (let request = nextRunnable(); request; request = nextRunnable()) {
        try {
          port.postMessage({ id: request.id, ok: true, rows: await run(request) });
        } catch (error) {
          fail(request.id, carryError(error));
        }
      }
    } finally {
      draining = false;
    }
  };

  port.on("message", (request: WorkerRequest) => {
    // A statement of a transaction arrives only while that transaction is open (the main thread
    // waits for "begin"); one that comes later belongs to a transaction that is over.
    const tx =
      request.kind === "query" || request.kind === "commit" || request.kind === "rollback"
        ? request.tx
        : undefined;
    if (tx !== undefined && tx !== openTx) {
      fail(request.id, { message: "transaction is already over", fields: {} });
      return;
    }
    waiting.push(request);
    void drain();
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: carryError(error) });
}
