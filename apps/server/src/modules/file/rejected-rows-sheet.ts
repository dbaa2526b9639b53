import type { Queryable } from "../../db/client.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { safeCell } from "../../xlsx/safe-cell.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { storeFile } from "./file.store.ts";

export interface RejectedRowsSheet {
  /** The name the operator downloads it under. */
  fileName: string;
  /** Width in characters; `text` keeps a column's cells text (codes with leading zeros stay so). */
  columns: readonly { header: string; width: number; text?: boolean }[];
  rows: readonly (readonly unknown[])[];
}

/**
 * Stores an import's refused rows as a sheet "未导入" of the caller's, every cell written as
 * typed (safeCell), and answers the stored file (its link goes into the import's answer).
 */
export async function storeRejectedRows(
  db: Queryable,
  caller: CurrentUser,
  rejected: RejectedRowsSheet,
  /** Further sheets of refused rows (an import of several sheets), each under its own name. */
  more: readonly (Omit<RejectedRowsSheet, "fileName"> & { name: string })[] = [],
) {
  const book = new (await loadExcel()).Workbook();
  const sheets = [{ ...rejected, name: "未导入" }, ...more];
  // The first sheet is kept even when empty only if nothing follows it.
  for (const [at, part] of sheets.entries()) {
    if (part.rows.length === 0 && (at > 0 || more.some((m) => m.rows.length > 0))) continue;
    const sheet = book.addWorksheet(part.name);
    sheet.columns = part.columns.map(({ header, width }) => ({ header, width }));
    part.columns.forEach((column, index) => {
      if (column.text) sheet.getColumn(index + 1).numFmt = "@";
    });
    for (const row of part.rows) sheet.addRow(row.map(safeCell));
    sheet.getRow(1).font = { bold: true };
  }
  return storeFile(db, {
    tenantId: caller.tenantId,
    userId: caller.userId,
    originalName: rejected.fileName,
    extension: "xlsx",
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    content: Buffer.from(await book.xlsx.writeBuffer()),
  });
}
