/** What the main thread asks of the embedded database's worker thread, and what it answers. */
export type WorkerRequest =
  | { id: number; kind: "query"; sql: string; params?: readonly unknown[]; tx?: number }
  | { id: number; kind: "script"; sql: string }
  | { id: number; kind: "begin" | "commit" | "rollback"; tx: number }
  | { id: number; kind: "close" }
  | { id: number; kind: "listen"; channel: string };

/** A NOTIFY on a channel the main thread listens to, posted before the reply of the statement that committed it. */
export interface WorkerNotice {
  notice: true;
  payload: string;
}

export type WorkerReply =
  | { id: number; ok: true; rows: unknown[] }
  | { id: number; ok: false; error: CarriedError };

/** The first message of the worker: open, or why not. */
export type WorkerHello = { ready: true } | { ready: false; error: CarriedError };

/** A database error as plain data: a structured clone keeps only message and stack of an Error. */
export interface CarriedError {
  message: string;
  fields: Record<string, string | number | boolean | readonly unknown[]>;
}

/** Fields a PostgreSQL error carries (code 23505, constraint, detail…): kept so callers see them. */
export function carryError(error: unknown): CarriedError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: CarriedError["fields"] = {};
  for (const [key, value] of Object.entries(error)) {
    // queryOptions holds the parser functions, which cannot cross threads and say nothing new.
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      fields[key] = value;
    else if (key === "params" && Array.isArray(value)) fields[key] = value;
  }
  if (!("name" in fields) && error.name !== "Error") fields.name = error.name;
  return { message: error.message, fields };
}

/** The error again on this side, with this side's stack: where the query was asked for. */
export function revive(carried: CarriedError): Error {
  return Object.assign(new Error(carried.message), carried.fields);
}
