import ExcelJS from "exceljs";
import { badRequest } from "../../contract/errors.ts";
import {
  type ColumnKey,
  headerOf,
  IMPORT_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
  type RowText,
} from "./import-columns.ts";
import { checkArchive } from "./xlsx-bounds.ts";

/** One non-blank data row: its number in the sheet (header = 1), its text, and cells unreadable as text. */
export interface SheetRow {
  row: number;
  text: RowText;
  problems: string[];
}

/** Sheet XML of 10,000 rows is a few tens of MB; anything far beyond is not a registry sheet. */
const MAX_INFLATED_BYTES = 20 * MAX_IMPORT_BYTES;

/**
 * Reads the first sheet that carries the required headers. Problems of the file as a whole (not
 * an .xlsx, no such sheet, too many rows) answer 400 naming `file`; problems of single cells stay
 * with their row so the rest of the file still imports.
 */
export async function readImportSheet(file: Buffer): Promise<SheetRow[]> {
  const archive = checkArchive(file, MAX_INFLATED_BYTES);
  if (!archive.ok) {
    throw badRequest(
      archive.reason === "tooLarge" ? "file: 解压后的内容过大" : "file: 无法读取的 Excel 文件",
    );
  }
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw badRequest("file: 无法读取的 Excel 文件");
  }
  const found = book.worksheets
    .map((sheet) => ({ sheet, index: headerIndex(sheet) }))
    .find(({ index }) => REQUIRED_COLUMNS.every((key) => index.has(key)));
  if (!found) throw badRequest(`file: 缺少列 ${REQUIRED_COLUMNS.map(headerOf).join("、")}`);
  const { sheet, index } = found;
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cells = row.values as ExcelJS.CellValue[];
    const text = {} as RowText;
    const problems: string[] = [];
    for (const { key } of IMPORT_COLUMNS) {
      const at = index.get(key);
      const cell = at === undefined ? "" : cellText(cells[at]);
      if (cell === undefined) {
        problems.push(`${headerOf(key)}: 数字位数过多已失真, 请将该列设为文本格式后重新填写`);
        text[key] = "";
      } else text[key] = cell;
    }
    if (problems.length === 0 && Object.values(text).every((v) => v === "")) return;
    rows.push({ row: rowNumber, text, problems });
  });
  if (rows.length > MAX_IMPORT_ROWS) {
    throw badRequest(`file: 一次最多导入 ${MAX_IMPORT_ROWS} 行, 本文件有 ${rows.length} 行`);
  }
  return rows;
}

/** Column number of each known header in the sheet's first row; a trailing `*` (required mark) is ignored. */
function headerIndex(sheet: ExcelJS.Worksheet): Map<ColumnKey, number> {
  const byHeader = new Map<string, number>();
  const values = sheet.getRow(1).values as ExcelJS.CellValue[];
  values.forEach((value, at) => {
    const header = (cellText(value) ?? "").replace(/[\s*]/g, "");
    if (header && !byHeader.has(header)) byHeader.set(header, at);
  });
  const index = new Map<ColumnKey, number>();
  for (const { key, header } of IMPORT_COLUMNS) {
    const at = byHeader.get(header);
    if (at !== undefined) index.set(key, at);
  }
  return index;
}

/**
 * A cell as trimmed text. `undefined` when the cell is a whole number beyond 2^53: Excel stored a
 * long code (an id card, say) as a number and its last digits are already gone.
 */
function cellText(value: ExcelJS.CellValue): string | undefined {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) return undefined;
    return String(value);
  }
  if (typeof value === "string") return value.trim();
  if (typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if ("richText" in value)
    return value.richText
      .map((part) => part.text)
      .join("")
      .trim();
  if ("formula" in value || "sharedFormula" in value) return cellText(value.result ?? null);
  if ("text" in value) return String(value.text).trim();
  if ("error" in value) return String(value.error);
  return "";
}
