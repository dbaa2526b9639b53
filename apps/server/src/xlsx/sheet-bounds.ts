/**
 * What one spreadsheet upload may hold. Every import states its own bounds; the reader refuses a
 * file at the first bound it crosses, before the rest is read.
 */
export interface SheetBounds {
  /** Sum of the archive entries' uncompressed sizes, as the archive's directory states them. */
  maxInflatedBytes: number;
  /** Entries in the archive (an .xlsx from Excel has a dozen or two). */
  maxEntries: number;
  /** Non-blank data rows under the header row. */
  maxRows: number;
  /** Highest column number that holds a value. */
  maxColumns: number;
  /** Characters of text in one cell. */
  maxCellChars: number;
}

/** A cell reduced to what crosses threads: rich text joined, formulas as their cached result. */
export type SheetCell = string | number | boolean | Date | null;

export interface SheetRow {
  /** Row number in the sheet; the header row is 1. */
  row: number;
  /** Cells by column number (1 = A), like ExcelJS's `row.values`. */
  cells: SheetCell[];
}

export interface SheetData {
  /** Header row text by column number, trimmed. */
  headers: string[];
  rows: SheetRow[];
}

/** Why a file was refused as a whole; `readWorkbook` turns it into a 400 naming `file`. */
export type SheetRefusal =
  | { kind: "unreadable" }
  | { kind: "inflated"; limit: number }
  | { kind: "entries"; limit: number }
  | { kind: "rows"; limit: number }
  | { kind: "columns"; limit: number }
  | { kind: "cell"; limit: number; address: string };

/** Headers a worksheet must hold to be taken; an entry that is a list is met by any one of them. */
export type HeaderSpec = readonly (string | readonly string[])[];

/** One entry per spec asked for, null where no worksheet carries that spec's headers. */
export type SheetsResult = { ok: true; sheets: (SheetData | null)[] } | { ok: false; refusal: SheetRefusal };

const MB = 1024 * 1024;

/** The refusal in the console's language, naming the bound that was crossed. */
export function refusalMessage(refusal: SheetRefusal): string {
  switch (refusal.kind) {
    case "unreadable":
      return "file: 无法读取的 Excel 文件";
    case "inflated":
      return `file: 解压后的内容超过上限 ${Math.round(refusal.limit / MB)}MB`;
    case "entries":
      return `file: 压缩包内的文件数超过上限 ${refusal.limit}`;
    case "rows":
      return `file: 文件行数超过上限 ${refusal.limit}`;
    case "columns":
      return `file: 文件列数超过上限 ${refusal.limit}`;
    case "cell":
      return `file: 单元格 ${refusal.address} 的内容超过上限 ${refusal.limit} 字`;
  }
}

/** `A`, `B`, … `AA` for a column number. */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}
