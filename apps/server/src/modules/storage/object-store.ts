import type { Readable } from "node:stream";

/** A byte range of a stored object, both ends included (HTTP Range semantics). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a read answers: the bytes (all, or the range asked for) and the object's whole size. */
export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * One place objects are kept: the server's disk or an S3-compatible bucket. Bodies stream both
 * ways; no implementation holds a whole file in memory.
 */
export interface ObjectStore {
  /** Writes the stream under `key` and answers the number of bytes stored. */
  put(key: string, body: Readable, contentType: string): Promise<number>;
  /** The object's bytes, or undefined when it does not exist. */
  get(key: string, range?: ByteRange): Promise<StoredObject | undefined>;
  /** The object's size, or undefined when it does not exist. */
  size(key: string): Promise<number | undefined>;
  /** Deletes the object; one that is already gone is not an error. */
  remove(key: string): Promise<void>;
  /** Proves the storage can be used (the bucket answers to these credentials); throws otherwise. */
  check(): Promise<void>;
}

/**
 * Object keys are made by the server (`<tenant>/upload/<yyyyMMdd>/<uuid>.<ext>`), never from a
 * client's name; this guards every store against a key that could leave its root anyway.
 */
export function assertSafeKey(key: string): void {
  if (!/^[\w-]+(\/[\w-]+)*(\.[a-z0-9]+)?$/.test(key) || key.includes("..")) {
    throw new Error(`unsafe object key ${JSON.stringify(key)}`);
  }
}
