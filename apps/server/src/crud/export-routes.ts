import { once } from "node:events";
import { PassThrough } from "node:stream";
import { columnOf, commonFieldsZh, resourcesZh } from "@meterline/contracts";
import type { FastifyReply } from "fastify";
import { optionalId, readParams } from "../contract/params.ts";
import type { Db } from "../db/client.ts";
import { loadExcel } from "../xlsx/excel.ts";
import { safeCell } from "../xlsx/safe-cell.ts";
import { columnsOf } from "./columns.ts";
import type { ResourceContext } from "./context.ts";
import { requirePermission } from "./permissions.ts";
import type { Row } from "./serialize.ts";
import { sendWorkbook } from "./sheet-import-routes.ts";
import { ident } from "./sql.ts";

/** Rows of one export unless the `export.maxRows` parameter says otherwise; the sheet says when it was cut. */
export const EXPORT_LIMIT = 100_000;
/**
 * Rows read and written per round trip: memory holds one chunk, never the whole export, and no
 * statement or stretch of sheet writing holds the database or the event loop for long (on the
 * embedded database every other request waits behind each statement).
 */
const CHUNK = 250;

/** The row bound of an export: the `export.maxRows` parameter, else EXPORT_LIMIT. */
export async function exportLimit(db: Db): Promise<number> {
  const [param] = await db.query<{ param_value: string }>(
    "select param_value from sys_param where param_key = 'export.maxRows' and is_deleted = 0",
  );
  const value = Number(param?.param_value);
  return Number.isInteger(value) && value > 0 ? Math.min(value, 1_000_000) : EXPORT_LIMIT;
}

/**
 * `GET <base>/export`: the rows of the current search as an Excel sheet, headed by the fields'
 * Chinese labels, dictionary values shown by name. Opened with `?Blade-Auth=` by the console.
 * The rows are read in chunks in list order (keyset: each chunk resumes after the last row of the
 * one before), each written straight into the streamed workbook: cost grows with the rows exported,
 * not with the table, and other requests run between the chunks.
 */
export function registerExportRoute(r: ResourceContext) {
  const { app, def, db, store, base, tags, codes } = r;
  const labels = (resourcesZh as Record<string, { title: string; fields: Record<string, string> }>)[def.name];
  const columns = columnsOf(def).filter(
    (c) => c.field.list !== false && !c.field.secret && c.name !== "isDeleted",
  );
  const title = labels?.title ?? def.name;

  app.get(
    `${base}/export`,
    { schema: { tags, summary: `${def.name} rows of the current search as .xlsx` } },
    async (request, reply) => {
      await requirePermission(db, request, [codes.exportRows], def.guard);
      const params = readParams(request);
      const q = await r.query(request, params);
      // The items pane of a master-detail screen exports only the chosen parent's children.
      const parentId = def.tree ? optionalId(params, "parentId") : undefined;
      if (def.tree && parentId) {
        const parentColumn = columnOf(def.tree.parent, def.fields[def.tree.parent]!);
        q.conditions.push(`t.${ident(parentColumn)} = ${q.sql.bind(parentId)}`);
      }
      const limit = await exportLimit(db);

      // People read names: dictionary labels and the names a resource joins in (roleId → roleName).
      const named = (row: Row) =>
        Object.fromEntries(
          columns.map((c) => [
            c.name,
            safeCell(row[`${c.name}Name`] ?? row[`${c.name.replace(/Id$/, "")}Name`] ?? row[c.name]),
          ]),
        );
      const stream = new PassThrough();
      const book = new (await loadExcel()).stream.xlsx.WorkbookWriter({
        stream,
        useStyles: true,
        useSharedStrings: false,
      });
      const sheet = book.addWorksheet(title);
      // Sheets keep the tenant's code (租户编号), the key an import reads back, for every caller.
      sheet.columns = columns.map((c) => ({
        header: labels?.fields[c.name] ?? (commonFieldsZh as Record<string, string>)[c.name] ?? c.name,
        key: c.name,
        width: Math.min(60, Math.max(12, (c.field.maxLength ?? 20) / 2)),
      }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();

      // Read before answering, so a bad search is still a clean error and the header can say the
      // export is cut.
      const cut = await store.moreThan(q, limit);
      let chunk = await store.rowsAfter(q, undefined, Math.min(CHUNK, limit));
      const write = async () => {
        let written = chunk.rows.length;
        while (chunk.rows.length > 0) {
          for (const row of await r.out(request, chunk.rows)) sheet.addRow(named(row)).commit();
          if (!(await readerKeepsUp(stream))) return;
          if (written >= limit || chunk.rows.length < CHUNK) break;
          // Lets the requests that came in meanwhile run before the next chunk is read.
          await new Promise((resolve) => setImmediate(resolve));
          chunk = await store.rowsAfter(q, chunk.cursor, Math.min(CHUNK, limit - written));
          written += chunk.rows.length;
        }
        if (cut) sheet.addRow({ [columns[0]!.name]: `仅导出前 ${limit} 行,请缩小查询范围` }).commit();
        sheet.commit();
        await book.commit();
      };
      const file = `${title}-${new Date().toISOString().slice(0, 10)}.xlsx`;
      sendStream(reply, stream, file, cut ? limit : undefined);
      write().catch((error: unknown) => {
        request.log.error({ err: error }, "export failed mid-stream");
        stream.destroy(error as Error);
      });
      return reply;
    },
  );
}

/**
 * Waits while the client reads slower than the rows are written, so that memory holds about one
 * chunk of the sheet; false when the client went away (nothing more to write).
 */
export async function readerKeepsUp(stream: PassThrough): Promise<boolean> {
  if (stream.writableNeedDrain && !stream.destroyed)
    await Promise.race([once(stream, "drain"), once(stream, "close")]);
  return !stream.destroyed;
}

export function sendStream(
  reply: FastifyReply,
  stream: PassThrough,
  file: string,
  cutAt: number | undefined,
) {
  if (cutAt !== undefined) reply.header("x-export-truncated", String(cutAt));
  sendWorkbook(reply, file, stream);
}
