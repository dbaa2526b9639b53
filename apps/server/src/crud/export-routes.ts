import { columnOf, commonFieldsZh, resourcesZh } from "@meterline/contracts";
import ExcelJS from "exceljs";
import { optionalId, readParams } from "../contract/params.ts";
import { columnsOf } from "./columns.ts";
import type { ResourceContext } from "./context.ts";
import { requirePermission } from "./permissions.ts";
import { ident } from "./sql.ts";

/** Bounds one export so a careless click cannot hold the server; the sheet says when it was cut. */
export const EXPORT_LIMIT = 50_000;

/**
 * `GET <base>/export`: the rows of the current search as an Excel sheet, headed by the fields'
 * Chinese labels, dictionary values shown by name. Opened with `?Blade-Auth=` by the console.
 */
export function registerExportRoute(r: ResourceContext) {
  const { app, def, db, store, base, tags, codes } = r;
  const labels = (resourcesZh as Record<string, { title: string; fields: Record<string, string> }>)[def.name];
  const columns = columnsOf(def).filter(
    (c) => c.field.list !== false && !c.field.secret && c.name !== "isDeleted",
  );

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
      const rows = await r.out(request, await store.list({ ...q, limit: EXPORT_LIMIT + 1, offset: 0 }));
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet(labels?.title ?? def.name);
      sheet.columns = columns.map((c) => ({
        header: labels?.fields[c.name] ?? (commonFieldsZh as Record<string, string>)[c.name] ?? c.name,
        key: c.name,
        width: Math.min(60, Math.max(12, (c.field.maxLength ?? 20) / 2)),
      }));
      for (const row of rows.slice(0, EXPORT_LIMIT)) {
        // People read names: dictionary labels and the names a resource joins in (roleId → roleName).
        const named = Object.fromEntries(
          columns.map((c) => [
            c.name,
            row[`${c.name}Name`] ?? row[`${c.name.replace(/Id$/, "")}Name`] ?? row[c.name],
          ]),
        );
        sheet.addRow(named);
      }
      sheet.getRow(1).font = { bold: true };
      if (rows.length > EXPORT_LIMIT)
        sheet.addRow({ [columns[0]!.name]: `仅导出前 ${EXPORT_LIMIT} 行,请缩小查询范围` });
      const file = `${labels?.title ?? def.name}-${new Date().toISOString().slice(0, 10)}.xlsx`;
      const buffer = Buffer.from(await book.xlsx.writeBuffer());
      return reply
        .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(file)}`)
        .send(buffer);
    },
  );
}
