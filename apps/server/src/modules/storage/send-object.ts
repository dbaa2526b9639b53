import type { FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../../contract/errors.ts";
import type { ByteRange } from "./object-store.ts";
import type { AttachObject, StorageService } from "./storage.service.ts";

/**
 * The range a `Range: bytes=a-b` header asks of an object of `size` bytes: one range only (what
 * players and download managers send); "unsatisfiable" when it lies outside the object, and
 * undefined when there is no header or one this server answers with the whole object.
 */
export function rangeOf(header: string | undefined, size: number): ByteRange | "unsatisfiable" | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (match[1] === "") {
    // A suffix: the last n bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

/** Streams an attachment's object to the client: whole (200) or the range asked for (206). */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: StorageService,
  row: AttachObject,
  disposition: "inline" | "attachment",
) {
  const size = await storage.sizeOf(row);
  if (size === undefined) throw await storage.missing(row);
  const range = rangeOf(request.headers.range, size);
  if (range === "unsatisfiable") {
    return reply.status(416).header("content-range", `bytes */${size}`).send();
  }
  const object = await storage.read(row, range);
  if (!object) throw notFound("文件不存在");
  reply
    .header("content-type", row.content_type)
    .header("accept-ranges", "bytes")
    .header("cache-control", "private, max-age=86400")
    .header("x-content-type-options", "nosniff")
    .header(
      "content-disposition",
      `${disposition}; filename*=UTF-8''${encodeURIComponent(row.original_name)}`,
    );
  if (range) {
    reply
      .status(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
      .header("content-length", range.end - range.start + 1);
  } else {
    reply.header("content-length", size);
  }
  return reply.send(object.body);
}
