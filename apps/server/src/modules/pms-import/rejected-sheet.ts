import type { Queryable } from "../../db/client.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { safeCell } from "../../xlsx/safe-cell.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { storeFile } from "../file/file.store.ts";
import { IMPORT_COLUMNS } from "./import-columns.ts";
import type { Rejection } from "./import-plan.ts";

export const REASON_HEADER = "失败原因";
export const ROW_HEADER = "原行号";

/**
 * Stores the rejected rows as a sheet in the template's own layout plus a reason and the row's
 * number in the uploaded file: the operator fixes the rows in place and imports this very file
 * (the extra columns are ignored on import).
 */
export async function storeRejectedSheet(db: Queryable, caller: CurrentUser, rejected: readonly Rejection[]) {
  const book = new (await loadExcel()).Workbook();
  const sheet = book.addWorksheet("未导入");
  sheet.columns = [
    ...IMPORT_COLUMNS.map((c) => ({ header: c.header, width: c.width })),
    { header: REASON_HEADER, width: 60 },
    { header: ROW_HEADER, width: 8 },
  ];
  IMPORT_COLUMNS.forEach((c, index) => {
    if (c.text) sheet.getColumn(index + 1).numFmt = "@";
  });
  for (const r of rejected) {
    sheet.addRow([...IMPORT_COLUMNS.map((c) => safeCell(r.text[c.key])), safeCell(r.reason), r.row]);
  }
  sheet.getRow(1).font = { bold: true };
  return storeFile(db, {
    tenantId: caller.tenantId,
    userId: caller.userId,
    originalName: "未导入的房间档案.xlsx",
    extension: "xlsx",
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    content: Buffer.from(await book.xlsx.writeBuffer()),
  });
}
