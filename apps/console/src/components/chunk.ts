import { website } from "@meterline/contracts";
import type { ComponentType } from "react";
import { addLog } from "../store/logs.ts";

/** A page module and the source file it comes from (named in chunk-failure logs). */
export interface PageEntry {
  load: () => Promise<{ default: ComponentType }>;
  file: string;
}

/** A dynamic import that failed or timed out; `file` is the chunk the browser asked for. */
export class ChunkLoadError extends Error {
  override readonly name = "ChunkLoadError";
  readonly type = "chunk";
  readonly file: string;

  constructor(message: string, file: string) {
    super(message);
    this.file = file;
  }
}

/** The URL inside "Failed to fetch dynamically imported module: <url>" and its relatives. */
export function requestedFile(message: string, fallback: string): string {
  return message.match(/(https?:\/\/\S+|\/\S+\.(?:m?js|css))/)?.[1] ?? fallback;
}

/**
 * Imports a page with the chunk time-out of spec §9. A failure is logged as type 'chunk' with the
 * requested file and rethrown as ChunkLoadError, so the page can offer a retry.
 */
export async function loadChunk(entry: PageEntry): Promise<{ default: ComponentType }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Loading chunk timed out after ${website.chunkLoadTimeoutMs} ms`)),
      website.chunkLoadTimeoutMs,
    );
  });
  try {
    return await Promise.race([entry.load(), timeout]);
  } catch (cause) {
    const failure = cause instanceof Error ? cause : new Error(String(cause));
    const file = requestedFile(failure.message, entry.file);
    addLog({
      type: "chunk",
      url: file,
      message: failure.message,
      stack: failure.stack ?? "",
      info: entry.file,
    });
    throw new ChunkLoadError(failure.message, file);
  } finally {
    clearTimeout(timer);
  }
}
