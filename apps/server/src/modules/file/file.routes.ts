import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { notFound, unauthorized } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { sendObject } from "../storage/send-object.ts";
import type { AttachObject, StorageService } from "../storage/storage.service.ts";
import { FILE_LINK_BASE } from "./file.store.ts";
import { MAX_FILE_BYTES, readUpload, uploadLimit } from "./upload-part.ts";

/** Either storage screen's upload button lets a role upload: 对象存储's or 附件管理's. */
const UPLOAD_CODES = ["oss_upload", "attach_upload"];
const NO_UPLOAD_PERMISSION =
  "无权限上传文件: 需要「对象存储 - 上传」(oss_upload) 或「附件管理 - 上传」(attach_upload) 按钮权限, 请联系管理员授权";

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

  /**
   * Reserves the most the upload can hold of the tenant's quota (the file is part of the body, so
   * never longer than the length the request declares, nor than the purpose's size limit), then
   * reads, checks and stores it.
   */
  const upload = (request: FastifyRequest, caller: CurrentUser, purpose: string | undefined) => {
    const limit = uploadLimit(purpose);
    const declared = Number(request.headers["content-length"]);
    const maxBytes = Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, limit) : limit;
    return storage.save(caller, maxBytes, () => readUpload(request, purpose));
  };
  const uploader = (request: FastifyRequest) =>
    requirePermission(db, request, UPLOAD_CODES, undefined, NO_UPLOAD_PERMISSION);

  app.post(
    "/api/blade-resource/oss/endpoint/put-file",
    { schema: { tags, summary: "Upload one file (purpose=avatar: a picture for the own avatar)" } },
    async (request) => {
      const purpose = optionalString(readParams(request), "purpose");
      // Everyone signed in may upload their own avatar (profile page): held to a jpg or png of at
      // most 500 kb, within the tenant's quota. Any other file needs the upload permission.
      const caller =
        purpose === "avatar" ? await requirePermission(db, request, []) : await uploader(request);
      const { link, domain, name, originalName } = await upload(request, caller, purpose);
      return ok({ link, domain, name, originalName });
    },
  );

  app.post(
    "/api/blade-resource/oss/endpoint/put-file-attach",
    { schema: { tags, summary: "Upload one attachment" } },
    async (request) => {
      const caller = await uploader(request);
      return ok(await upload(request, caller, optionalString(readParams(request), "purpose")));
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
