import { ApiError } from "../../contract/errors.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { readWorkbook } from "../../xlsx/read-workbook.ts";
import { safeCell } from "../../xlsx/safe-cell.ts";
import type { SheetBounds, SheetCell, SheetData } from "../../xlsx/sheet-bounds.ts";
import type { RegionRepository, RegionRow } from "./region.repository.ts";

/** The sheet's columns: header text → field. Export, template and import share them. */
export const REGION_COLUMNS = [
  { header: "区划编号", field: "code" },
  { header: "上级编号", field: "parentCode" },
  { header: "区划名称", field: "name" },
  { header: "排序", field: "sort" },
  { header: "备注", field: "remark" },
] as const;

/** The most rows one export or import carries: every town of a province fits. */
export const MAX_REGION_ROWS = 20_000;
const REGION_SHEET_BOUNDS: SheetBounds = {
  maxInflatedBytes: 64 * 1024 * 1024,
  maxEntries: 500,
  maxRows: MAX_REGION_ROWS,
  maxColumns: 32,
  maxCellChars: 255,
};
export const REGION_CODE = /^\d{2,12}$/;

/** The country, the root every region descends from (contract §10.8). */
const ROOT_CODE = "00";

/**
 * A region's code is its parent's followed by its own digits; the country's children (provinces,
 * "11") are the exception, as they stand under "00" without carrying it.
 */
export const followsParent = (code: string, parentCode: string): boolean =>
  parentCode === ROOT_CODE ? code !== ROOT_CODE : code.startsWith(parentCode) && code !== parentCode;

const text = (value: SheetCell | undefined): string =>
  value === null || value === undefined ? "" : String(value).trim();

/** A workbook of regions (or, without rows, the import template). */
export async function regionWorkbook(rows: readonly RegionRow[]): Promise<Buffer> {
  const book = new (await loadExcel()).Workbook();
  const sheet = book.addWorksheet("行政区划");
  sheet.columns = REGION_COLUMNS.map((c) => ({ header: c.header, key: c.field, width: 18 }));
  for (const r of rows) {
    sheet.addRow({
      code: r.code,
      parentCode: r.parent_code,
      name: safeCell(r.name),
      sort: r.sort,
      remark: safeCell(r.remark ?? ""),
    });
  }
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}

export async function readRegionSheet(file: Buffer): Promise<SheetData> {
  const sheet = await readWorkbook(file, REGION_SHEET_BOUNDS, ["区划编号"]);
  if (!sheet) throw new ApiError(400, "file: 文件中没有含“区划编号”列的工作表");
  return sheet;
}

export interface RegionImportResult {
  created: number;
  updated: number;
  rejected: number;
  /** One line per refused row: its sheet row and the reason. */
  errors: string[];
}

/**
 * Adds or updates the sheet's regions under the same rules as submit. Parents come before their
 * children whatever the sheet's order (shorter codes first), so a province and its cities can
 * arrive in one file; a refused row is reported and the others still land.
 */
export async function importRegions(repo: RegionRepository, sheet: SheetData): Promise<RegionImportResult> {
  const headers = sheet.headers.map((h) => text(h));
  const column = (header: string) => headers.indexOf(header);
  const missing = REGION_COLUMNS.filter(
    (c) => c.field !== "remark" && c.field !== "sort" && column(c.header) < 0,
  );
  if (missing.length) throw new ApiError(400, `file: 缺少列 ${missing.map((c) => c.header).join("、")}`);
  const cell = (cells: SheetCell[], header: string) => {
    const at = column(header);
    return at < 0 ? "" : text(cells[at]);
  };
  const rows = sheet.rows
    .map((r) => ({
      row: r.row,
      code: cell(r.cells, "区划编号"),
      parentCode: cell(r.cells, "上级编号"),
      name: cell(r.cells, "区划名称"),
      sort: cell(r.cells, "排序"),
      remark: cell(r.cells, "备注"),
    }))
    .sort((a, b) => a.code.length - b.code.length || a.row - b.row);
  const result: RegionImportResult = { created: 0, updated: 0, rejected: 0, errors: [] };
  const refuse = (row: number, reason: string) => {
    result.rejected++;
    result.errors.push(`第${row}行: ${reason}`);
  };
  for (const r of rows) {
    if (!REGION_CODE.test(r.code)) refuse(r.row, "区划编号须为2至12位数字");
    else if (!followsParent(r.code, r.parentCode)) refuse(r.row, "区划编号须以上级编号开头");
    else if (!r.name || r.name.length > 64) refuse(r.row, "区划名称不能为空且不超过64个字符");
    else if (r.sort && !/^\d{1,6}$/.test(r.sort)) refuse(r.row, "排序须为整数");
    else {
      const parent = await repo.one(r.parentCode);
      if (!parent) {
        refuse(r.row, "上级区划不存在");
        continue;
      }
      const existed = await repo.one(r.code);
      await repo.save({
        code: r.code,
        parent,
        name: r.name,
        sort: r.sort ? Number(r.sort) : 1,
        remark: r.remark || null,
      });
      if (existed) result.updated++;
      else result.created++;
    }
  }
  return result;
}
