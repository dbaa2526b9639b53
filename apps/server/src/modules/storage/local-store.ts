import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeKey, type ByteRange, type ObjectStore, type StoredObject } from "./object-store.ts";

/** Objects as files under one directory of the server's disk (DATA_DIR/files by default). */
export class LocalStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    const file = path.resolve(this.root, key);
    // Belt and braces: the key check already keeps every path below the root.
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error("object key escapes storage");
    return file;
  }

  async put(key: string, body: Readable): Promise<number> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed once complete: a failed upload never leaves half a file in place.
    const partial = `${file}.${process.pid}.part`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: "wx" }));
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return (await stat(file)).size;
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | undefined> {
    const size = await this.size(key);
    if (size === undefined) return undefined;
    const body = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { body, size };
  }

  async size(key: string): Promise<number | undefined> {
    const found = await stat(this.pathOf(key)).catch(() => undefined);
    return found?.isFile() ? found.size : undefined;
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }
}
