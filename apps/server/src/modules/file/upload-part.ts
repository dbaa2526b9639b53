import { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { badRequest } from "../../contract/errors.ts";
import { declaredSize } from "./image-size.ts";

/** A name naming a path or holding control characters: never a plain file name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
export const UNSAFE_NAME = /[/\\\u0000-\u001f\u007f]|^\.\.?$|^\.\./;

/** Upload limit of the endpoints; avatars are held to their own, smaller limit. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const AVATAR_MAX_BYTES = 500 * 1024;
/** Widest and tallest picture accepted: far beyond any avatar or photo a page shows. */
const MAX_IMAGE_SIDE = 8192;
/** Bytes read ahead to check what a file is (magic bytes, an image's declared size). */
const HEAD_BYTES = 64 * 1024;
const ALLOWED: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  txt: "text/plain",
};

/** The first bytes of each image kind: a file must be what its name says. */
function looksLike(extension: string, bytes: Buffer): boolean {
  const hex = bytes.subarray(0, 8).toString("hex");
  if (extension === "png") return hex.startsWith("89504e470d0a1a0a");
  if (extension === "jpg" || extension === "jpeg") return hex.startsWith("ffd8ff");
  if (extension === "gif") return hex.startsWith("47494638");
  if (extension === "webp") return bytes.subarray(8, 12).toString("ascii") === "WEBP";
  return true;
}

/** Reads up to `bytes` from the stream and leaves it paused where it stopped. */
function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = () => {
      stream.off("data", onData);
      stream.off("end", finish);
      stream.off("error", reject);
      stream.pause();
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) finish();
    };
    stream.on("data", onData);
    stream.once("end", finish);
    stream.once("error", reject);
  });
}

/** The most bytes one upload of this purpose may store: what it reserves of its tenant's quota. */
export const uploadLimit = (purpose: string | undefined) =>
  purpose === "avatar" ? AVATAR_MAX_BYTES : MAX_FILE_BYTES;

export interface CheckedUpload {
  originalName: string;
  extension: string;
  contentType: string;
  /** The file's bytes, streamed; it fails with a 400 once the size limit is passed. */
  body: Readable;
}

/**
 * The one file of a multipart upload, checked before anything is stored: its name (no path,
 * no NUL), its kind (by extension and first bytes), an image's declared size. The rest streams
 * through, counted, so a file is never held whole in memory and an oversized one fails the write.
 */
export async function readUpload(
  request: FastifyRequest,
  purpose: string | undefined,
): Promise<CheckedUpload> {
  if (!request.isMultipart()) throw badRequest("file: 请以 multipart/form-data 上传文件");
  const part: MultipartFile | undefined = await request.file().catch(() => {
    throw badRequest("file: 上传内容无法解析");
  });
  if (!part) throw badRequest("file: 请选择要上传的文件");
  const originalName = part.filename;
  if (!originalName || originalName.length > 255 || UNSAFE_NAME.test(originalName)) {
    part.file.resume();
    throw badRequest("file: 文件名不合法 (不能含路径、'..' 或控制字符, 最长 255 个字符)");
  }
  const extension = (originalName.split(".").pop() ?? "").toLowerCase();
  const contentType = ALLOWED[extension];
  if (!contentType) {
    part.file.resume();
    throw badRequest(`file: 不支持的文件类型 .${extension}`);
  }
  const avatar = purpose === "avatar";
  if (avatar && !["png", "jpg", "jpeg"].includes(extension)) {
    part.file.resume();
    throw badRequest("file: 头像只能是 jpg 或 png 格式");
  }
  const limit = uploadLimit(purpose);
  const tooLarge = () =>
    badRequest(
      avatar ? "file: 头像大小不能超过 500kb" : `file: 文件不能超过 ${MAX_FILE_BYTES / 1024 / 1024}MB`,
    );
  const head = await readHead(part.file, HEAD_BYTES);
  const refuse = (error: Error) => {
    part.file.resume();
    return error;
  };
  if (part.file.truncated || head.length > limit) throw refuse(tooLarge());
  if (!looksLike(extension, head)) throw refuse(badRequest(`file: 文件内容不是 .${extension} 格式`));
  const size = declaredSize(extension, head);
  if (size && (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE)) {
    throw refuse(badRequest(`file: 图片尺寸超过上限 ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE}`));
  }
  const rest = part.file;
  async function* counted() {
    let total = head.length;
    yield head;
    for await (const chunk of rest as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) throw tooLarge();
      yield chunk;
    }
    // The parser stops at the endpoint's limit and marks the file as cut short.
    if (rest.truncated) throw tooLarge();
  }
  return { originalName, extension, contentType, body: Readable.from(counted(), { objectMode: false }) };
}
