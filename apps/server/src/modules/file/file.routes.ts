import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { notFound, unauthorized } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { sendObject } from "../storage/send-object.ts";
import type { AttachObject, StorageService } from "../storage/storage.service.ts";
import { FILE_LINK_BASE } from "./file.store.ts";
import { MAX_FILE_BYTES, readUpload } from "./upload-part.ts";

/** Object names the server makes (`upload/<yyyyMMdd>/<uuid32>.<ext>`); anything else is no file. */
const FILE_NAME = /^upload\/\d{8}\/[0-9a-f]{32}\.[a-z0-9]{1,10}$/;

/**
 * The upload endpoints of contract §12.1 (`put-file` answering a BladeFile with `link`;
 * `put-file-attach` adding `attachId`), storing through the tenant's enabled object storage, and
 * the route that serves what was stored, whichever storage holds it.
 */
export async function fileRoutes(app: FastifyInstance, opts: { db: Db; storage: StorageService }) {
  const { db, storage } = opts;
  // One byte over the limit, so that the upload's own count reports an oversized file.
  // preservePath: the name as sent, so that one naming a path is refused rather than cut short.
  await app.register(multipart, {
    preservePath: true,
    limits: { fileSize: MAX_FILE_BYTES + 1, files: 1, fields: 10, parts: 11 },
  });
  const tags = ["resource"];

  const upload = async (request: Parameters<typeof readUpload>[0]) => {
    const purpose = optionalString(readParams(request), "purpose");
    const file = await readUpload(request, purpose);
    const user = request.user!;
    return storage.save({ tenantId: user.tenantId, userId: user.userId, ...file });
  };

  app.post(
    "/api/blade-resource/oss/endpoint/put-file",
    { schema: { tags, summary: "Upload one file" } },
    async (request) => {
      const { link, domain, name, originalName } = await upload(request);
      return ok({ link, domain, name, originalName });
    },
  );

  app.post(
    "/api/blade-resource/oss/endpoint/put-file-attach",
    { schema: { tags, summary: "Upload one attachment" } },
    async (request) => {
      await requirePermission(db, request, ["attach_upload"]);
      return ok(await upload(request));
    },
  );

  app.get(
    `${FILE_LINK_BASE}/*`,
    // Public as a route so that a signed link works without a token; the handler decides who may read.
    {
      config: { public: true },
      compress: false,
      schema: { tags, summary: "A stored file, to its tenant or by a signed link" },
    },
    async (request, reply) => {
      const name = (request.params as { "*": string })["*"];
      const query = request.query as Record<string, unknown>;
      // A signed link reads the file of the tenant it was signed for, and only that tenant's; a
      // signed-in caller without one reads the own tenant's. Another tenant's file is not there.
      const signed = app.fileLinks.verify(query.tenant, name, query.expires, query.signature);
      const tenantId = signed ? String(query.tenant) : request.user?.tenantId;
      if (!tenantId) throw unauthorized("请登录后查看文件, 或使用未过期的文件链接");
      if (!FILE_NAME.test(name)) throw notFound("文件不存在");
      const [attached] = await db.query<AttachObject>(
        `select id, oss_id, object_key, content_type, original_name from blade_attach
          where name = $1 and tenant_id = $2`,
        [name, tenantId],
      );
      if (attached) return sendObject(request, reply, storage, attached, "inline");
      // Files stored in the database before object storage existed (and import results).
      const [file] = await db.query<{ content: Uint8Array; content_type: string; original_name: string }>(
        "select content, content_type, original_name from res_file where name = $1 and tenant_id = $2",
        [name, tenantId],
      );
      if (!file) throw notFound("文件不存在");
      return reply
        .header("content-type", file.content_type)
        .header("cache-control", "private, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `inline; filename*=UTF-8''${encodeURIComponent(file.original_name)}`)
        .send(Buffer.from(file.content));
    },
  );
}
