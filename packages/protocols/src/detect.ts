import * as cjt188 from "./cjt188/index.ts";
import * as dlt645 from "./dlt645/index.ts";
import { isProtocolError, ProtocolError } from "./errors.ts";
import { splitFrames } from "./splitter.ts";

/**
 * Auto-detection for logs and the CLI: which protocol is this, and what does it say?
 * DL/T 645 has a second 0x68 at offset 7; CJ/T 188 does not. Both are tried at every 0x68
 * and a frame is accepted only with a valid checksum and end byte.
 */
export type ProtocolName = "dlt645" | "dlt645-2007" | "dlt645-1997" | "cjt188";

export interface DetectOptions {
  /** Force a protocol; "auto" (default) detects. */
  protocol?: ProtocolName | "auto";
  cjt188StatusMap?: cjt188.StatusBitMap;
}

export type AnyDecoded = (dlt645.Dlt645Decoded | cjt188.Cjt188Decoded) & {
  frame: { offset: number; length: number };
};

/** Decode every frame in `bytes`; throws the most relevant ProtocolError when there is none. */
export function decodeAll(bytes: Uint8Array, options: DetectOptions = {}): AnyDecoded[] {
  const forced = options.protocol ?? "auto";
  const stream = forced === "auto" ? "auto" : forced === "cjt188" ? "cjt188" : "dlt645";
  const { frames } = splitFrames(bytes, { protocol: stream });
  if (frames.length === 0) throw explainFailure(bytes, stream);
  return frames.map((found) => {
    const where = { offset: found.offset, length: found.bytes.length };
    if (found.protocol === "cjt188") {
      const frame = cjt188.parseFrame(found.bytes);
      return { ...cjt188.decodeFrame(frame, { statusMap: options.cjt188StatusMap }), frame: where };
    }
    const version = forced === "dlt645-1997" ? "1997" : forced === "dlt645-2007" ? "2007" : undefined;
    return { ...dlt645.decodeFrame(dlt645.parseFrame(found.bytes), { version }), frame: where };
  });
}

function errorOf(run: () => unknown): ProtocolError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (isProtocolError(error)) return error;
    throw error;
  }
}

/** Re-run the strict parsers to say why nothing was found; prefer the error that got further. */
function explainFailure(bytes: Uint8Array, stream: "auto" | "dlt645" | "cjt188"): ProtocolError {
  const dltError = stream === "cjt188" ? undefined : errorOf(() => dlt645.parseFrame(bytes));
  const cjtError = stream === "dlt645" ? undefined : errorOf(() => cjt188.parseFrame(bytes));
  if (dltError && (!cjtError || dltError.code !== "bad-header")) return dltError;
  return cjtError ?? dltError ?? new ProtocolError("no-start", "no frame found");
}
