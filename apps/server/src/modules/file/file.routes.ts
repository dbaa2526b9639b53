import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound, unauthorized } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { FILE_LINK_BASE, storeFile } from "./file.store.ts";
import { declaredSize } from "./image-size.ts";

/** Upload limit of the endpoint; avatars are held to their own, smaller limit below. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const AVATAR_MAX_BYTES = 500 * 1024;
/** Widest and tallest picture accepted: far beyond any avatar or photo a page shows. */
const MAX_IMAGE_SIDE = 8192;
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

/**
 * The object-storage upload endpoint of contract §12.1 (`put-file` answering a BladeFile with
 * `link`), backed by the database, and the route that serves what was stored.
 */
export async function fileRoutes(app: FastifyInstance, opts: { db: Db }) {
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 11 } });
  const tags = ["resource"];

  app.post(
    "/api/blade-resource/oss/endpoint/put-file",
    { schema: { tags, summary: "Upload one file" } },
    async (request) => {
      if (!request.isMultipart()) throw badRequest("file: 请以 multipart/form-data 上传文件");
      const part = await request.file().catch(() => {
        throw badRequest("file: 上传内容无法解析");
      });
      if (!part) throw badRequest("file: 请选择要上传的文件");
      const originalName = part.filename.slice(0, 500);
      const extension = (originalName.split(".").pop() ?? "").toLowerCase();
      const contentType = ALLOWED[extension];
      if (!contentType) throw badRequest(`file: 不支持的文件类型 .${extension}`);
      const content = await part.toBuffer().catch(() => {
        throw badRequest(`file: 文件不能超过 ${MAX_FILE_BYTES / 1024 / 1024}MB`);
      });
      const purpose = optionalString(readParams(request), "purpose");
      if (purpose === "avatar") {
        if (!["png", "jpg", "jpeg"].includes(extension)) throw badRequest("file: 头像只能是 jpg 或 png 格式");
        if (content.length > AVATAR_MAX_BYTES) throw badRequest("file: 头像大小不能超过 500kb");
      }
      if (!looksLike(extension, content)) throw badRequest(`file: 文件内容不是 .${extension} 格式`);
      const size = declaredSize(extension, content);
      if (size && (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE)) {
        throw badRequest(`file: 图片尺寸超过上限 ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE}`);
      }
      const user = request.user!;
      const stored = await storeFile(opts.db, {
        tenantId: user.tenantId,
        userId: user.userId,
        originalName,
        extension,
        contentType,
        content,
      });
      return ok(stored);
    },
  );

  app.get(
    `${FILE_LINK_BASE}/*`,
    // Public as a route so that a signed link works without a token; the handler decides who may read.
    {
      config: { public: true },
      schema: { tags, summary: "A stored file, to its tenant or by a signed link" },
    },
    async (request, reply) => {
      const name = (request.params as { "*": string })["*"];
      const query = request.query as Record<string, unknown>;
      const signed = app.fileLinks.verify(name, query.expires, query.signature);
      if (!signed && !request.user) throw unauthorized("请登录后查看文件, 或使用未过期的文件链接");
      const [file] = await opts.db.query<{
        tenant_id: string;
        content: Uint8Array;
        content_type: string;
        original_name: string;
      }>("select tenant_id, content, content_type, original_name from res_file where name = $1", [name]);
      // Another tenant's file answers as if it did not exist.
      if (!file || (!signed && file.tenant_id !== request.user!.tenantId)) throw notFound("文件不存在");
      return reply
        .header("content-type", file.content_type)
        .header("cache-control", "private, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `inline; filename*=UTF-8''${encodeURIComponent(file.original_name)}`)
        .send(Buffer.from(file.content));
    },
  );
}
