import { AsyncLocalStorage } from "node:async_hooks";
import { Worker } from "node:worker_threads";
import { CHANGE_CHANNEL } from "./cache-channel.ts";
import type { ChangeWatcher, Db, Queryable } from "./client.ts";
import {
  revive,
  type WorkerHello,
  type WorkerNotice,
  type WorkerReply,
  type WorkerRequest,
} from "./pglite-messages.ts";

type Ask = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, "id"> : never) : never;

/**
 * The worker's entry file sits next to this one: pglite-worker.mjs in the compiled build (an entry
 * of its own in scripts/build-server.mjs, in the same flat folder); pglite-worker.ts from source.
 */
const fromSource = import.meta.url.endsWith(".ts");
const workerUrl = new URL(fromSource ? "./pglite-worker.ts" : "./pglite-worker.mjs", import.meta.url);

/**
 * The worker's short-lived objects (statement texts, parameters, rows on their way out) die young:
 * V8's default young generation grows to 32 MiB of resident memory all the same. Capped at 8 MiB,
 * measured with bench/embedded.ts: the server's idle RSS 344–362 MiB instead of 384–409 and its peak
 * beside the export 467–485 instead of 530–548, with the light calls' p99 unchanged.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

function startWorker(dataDir: string | undefined, startFrom: string | undefined): Worker {
  const workerData = { dataDir, startFrom };
  if (!fromSource) return new Worker(workerUrl, { workerData, resourceLimits: WORKER_LIMITS });
  // Node 20 does not apply the parent's --import loader hooks to a worker's own modules: the worker
  // registers tsx itself before loading the TypeScript entry.
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(workerUrl.href)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits: WORKER_LIMITS });
}

/** Embedded PGlite in a worker thread: queries cross by message, the HTTP event loop never waits on them. */
export async function openPgliteThread(dataDir: string | undefined, startFrom?: string): Promise<Db> {
  const worker = startWorker(dataDir, startFrom);
  const pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  let sequence = 0;
  let stopped: Error | undefined;

  // The worker keeps the process alive only while something waits on it, as the in-line PGlite did.
  const settle = (id: number) => {
    const entry = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return entry;
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const id of [...pending.keys()]) settle(id)?.reject(stopped);
  };

  await new Promise<void>((resolve, reject) => {
    const exited = (code: number) => reject(new Error(`embedded database worker exited (${code})`));
    const stopWaiting = () => {
      worker.off("error", reject);
      worker.off("exit", exited);
    };
    worker.once("message", (hello: WorkerHello) => {
      stopWaiting();
      if (hello.ready) resolve();
      else {
        reject(revive(hello.error));
        void worker.terminate();
      }
    });
    worker.once("error", reject);
    worker.once("exit", exited);
  });
  const watchers = new Set<ChangeWatcher>();
  let listening: Promise<unknown> | undefined;
  worker.on("message", (reply: WorkerReply | WorkerNotice) => {
    if ("notice" in reply) {
      for (const watcher of watchers) watcher.changed(reply.payload);
      return;
    }
    const entry = settle(reply.id);
    if (reply.ok) entry?.resolve(reply.rows);
    else entry?.reject(revive(reply.error));
  });
  worker.on("error", (error) => stop(error));
  worker.on("exit", (code) => stop(new Error(`embedded database worker exited (${code})`)));
  worker.unref();

  const ask = (request: Ask): Promise<unknown[]> => {
    if (stopped) return Promise.reject(stopped);
    const id = ++sequence;
    return new Promise((resolve, reject) => {
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        // A parameter that cannot be cloned (a function, say) fails this query only.
        reject(error as Error);
        return;
      }
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
    });
  };

  const insideTransaction = new AsyncLocalStorage<number>();
  const outsideTransaction = () => {
    // The worker would hold this call until the transaction ends, which waits for this call.
    if (insideTransaction.getStore() !== undefined)
      throw new Error("database handle used inside its own transaction; use the transaction's handle");
  };
  let transactions = 0;

  return {
    kind: "pglite",
    async query<T>(sql: string, params?: readonly unknown[]) {
      outsideTransaction();
      return (await ask({ kind: "query", sql, ...(params ? { params } : {}) })) as T[];
    },
    async script(sql: string) {
      outsideTransaction();
      return (await ask({ kind: "script", sql })) as Record<string, unknown>[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      outsideTransaction();
      const tx = ++transactions;
      await ask({ kind: "begin", tx });
      let result: T;
      try {
        result = await insideTransaction.run(tx, () =>
          fn({
            query: async <R>(sql: string, params?: readonly unknown[]) =>
              (await ask({ kind: "query", sql, tx, ...(params ? { params } : {}) })) as R[],
          }),
        );
      } catch (error) {
        await ask({ kind: "rollback", tx }).catch(() => undefined);
        throw error;
      }
      await ask({ kind: "commit", tx });
      return result;
    },
    async watchChanges(watcher: ChangeWatcher) {
      listening ??= ask({ kind: "listen", channel: CHANGE_CHANNEL });
      await listening;
      watchers.add(watcher);
      watcher.listening(true);
      return async () => {
        watchers.delete(watcher);
      };
    },
    async close() {
      outsideTransaction();
      if (stopped) return;
      await ask({ kind: "close" });
      stopped = new Error("database is closed");
      await worker.terminate();
    },
  };
}
