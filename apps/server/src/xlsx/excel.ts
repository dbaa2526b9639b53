import type ExcelJS from "exceljs";

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs takes about a second to load, most of a production start: it is loaded when the first
 * spreadsheet is written or read, not when the server starts.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  loading ??= import("exceljs").then((module) => module.default);
  return loading;
}
