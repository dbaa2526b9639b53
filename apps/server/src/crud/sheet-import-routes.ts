import type { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ok } from "../contract/envelope.ts";
import { badRequest } from "../contract/errors.ts";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Sends a workbook as a download named `fileName` (UTF-8, so Chinese names survive). */
export function sendWorkbook(reply: FastifyReply, fileName: string, content: Buffer | Readable) {
  return reply
    .header("content-type", XLSX)
    .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(content);
}

/** One call that takes the sheet: what it does with it and the message it answers with. */
export interface SheetUpload<Caller> {
  path: string;
  summary: string;
  handle: (
    sheet: Buffer,
    caller: Caller,
    request: FastifyRequest,
  ) => Promise<{ data: unknown; message?: string }>;
}

export interface SheetImport<Caller> {
  tags: string[];
  /** The largest file taken; a larger one answers 400 naming `file`. */
  maxBytes: number;
  /** When set, only a file sent under this multipart field is taken. */
  field?: string;
  /** Checks the caller may import (template and uploads alike) and answers who it is. */
  authorize: (request: FastifyRequest) => Promise<Caller>;
  template: { path: string; summary: string; fileName: string; build: () => Promise<Buffer> };
  uploads: SheetUpload<Caller>[];
}

/** The uploaded .xlsx; every way it can be wrong answers 400 naming `file`. */
async function uploadedSheet(request: FastifyRequest, maxBytes: number, field: string | undefined) {
  if (!request.isMultipart()) throw badRequest("file: 请以 multipart/form-data 上传 .xlsx 文件");
  const part = await request.file().catch(() => {
    throw badRequest("file: 上传内容无法解析");
  });
  if (!part || (field !== undefined && part.fieldname !== field))
    throw badRequest("file: 请选择要导入的文件");
  if (!part.filename.toLowerCase().endsWith(".xlsx")) throw badRequest("file: 只能导入 .xlsx 文件");
  return part.toBuffer().catch(() => {
    throw badRequest(`file: 文件不能超过 ${maxBytes / 1024 / 1024}MB`);
  });
}

/**
 * The routes of an Excel import: the template to fill in, and the calls that take one filled-in
 * sheet as multipart (one file, a few small fields) and answer what was done with it.
 */
export async function sheetImportRoutes<Caller>(app: FastifyInstance, spec: SheetImport<Caller>) {
  await app.register(multipart, { limits: { fileSize: spec.maxBytes, files: 1, fields: 5, parts: 6 } });
  const { tags, template } = spec;
  app.get(template.path, { schema: { tags, summary: template.summary } }, async (request, reply) => {
    await spec.authorize(request);
    return sendWorkbook(reply, template.fileName, await template.build());
  });
  for (const upload of spec.uploads) {
    app.post(upload.path, { schema: { tags, summary: upload.summary } }, async (request) => {
      const caller = await spec.authorize(request);
      const sheet = await uploadedSheet(request, spec.maxBytes, spec.field);
      const answer = await upload.handle(sheet, caller, request);
      return ok(answer.data, answer.message);
    });
  }
}
