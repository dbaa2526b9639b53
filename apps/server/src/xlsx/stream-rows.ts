import { Readable } from "node:stream";
import type ExcelJS from "exceljs";
import { openArchive, readerArchive } from "./archive.ts";
import { loadExcel } from "./excel.ts";
import { typedText } from "./safe-cell.ts";
import {
  columnLetters,
  type HeaderSpec,
  type SheetBounds,
  type SheetCell,
  type SheetData,
  type SheetRow,
  type SheetsResult,
} from "./sheet-bounds.ts";

/** A header as compared: blanks and the template's required mark `*` do not count. */
export const headerKey = (text: string) => text.replace(/[\s*]/g, "");

/** Whether a header row holds every required header (any one of an entry's alternatives). */
function holds(headers: readonly string[], required: HeaderSpec): boolean {
  const present = new Set(headers.map(headerKey));
  return required.every((wanted) =>
    (typeof wanted === "string" ? [wanted] : wanted).some((h) => present.has(headerKey(h))),
  );
}

/**
 * Reads several kinds of worksheet from one workbook: for each spec, the first worksheet (not
 * already taken by an earlier spec) whose header row holds its required headers. Each sheet taken
 * is bounded on its own; a sheet no spec wants is skipped without keeping its rows.
 */
export async function readSheets(
  file: Uint8Array,
  bounds: SheetBounds,
  specs: readonly HeaderSpec[],
): Promise<SheetsResult> {
  const sheets: (SheetData | null)[] = specs.map(() => null);
  const archive = openArchive(file, bounds);
  if (!("ok" in archive)) return { ok: false, refusal: archive };
  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(
    Readable.from(chunks(readerArchive(archive.files))),
    {
      sharedStrings: "cache",
      styles: "cache",
      hyperlinks: "ignore",
      worksheets: "emit",
      entries: "ignore",
    },
  );
  try {
    for await (const worksheet of reader) {
      let headers: string[] | undefined;
      let wanted = true;
      let taker = -1;
      const rows: SheetRow[] = [];
      // A sheet that is not wanted is still read to its end: the reader streams sheets in turn.
      for await (const row of worksheet) {
        if (!wanted) continue;
        const values = row.values as ExcelJS.CellValue[];
        if (values.length - 1 > bounds.maxColumns) {
          return { ok: false, refusal: { kind: "columns", limit: bounds.maxColumns } };
        }
        const cells: SheetCell[] = [];
        for (let column = 1; column < values.length; column++) {
          const cell = primitive(values[column]);
          if (typeof cell === "string" && cell.length > bounds.maxCellChars) {
            const address = `${columnLetters(column)}${row.number}`;
            return { ok: false, refusal: { kind: "cell", limit: bounds.maxCellChars, address } };
          }
          cells[column] = cell;
        }
        if (!headers) {
          headers = Array.from(cells, (cell) =>
            cell === null || cell === undefined ? "" : String(cell).trim(),
          );
          const found = headers;
          taker = specs.findIndex((spec, at) => sheets[at] === null && holds(found, spec));
          wanted = taker >= 0;
          continue;
        }
        if (cells.every((cell) => cell === null || cell === undefined || cell === "")) continue;
        if (rows.length === bounds.maxRows) {
          return { ok: false, refusal: { kind: "rows", limit: bounds.maxRows } };
        }
        rows.push({ row: row.number, cells });
      }
      if (headers && wanted) sheets[taker] = { headers, rows };
      if (sheets.every((sheet) => sheet !== null)) break;
    }
  } catch {
    return { ok: false, refusal: { kind: "unreadable" } };
  }
  return { ok: true, sheets };
}

/**
 * The archive in small pieces: the reader parses each piece it is handed whole, so one big piece
 * would turn the whole sheet into rows before the first row could be counted.
 */
function* chunks(bytes: Uint8Array, size = 64 * 1024) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Rich text joined, a formula's cached result, a link's text; nothing of ExcelJS's objects remains. */
function primitive(value: ExcelJS.CellValue | undefined): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return typedText(value);
  if (typeof value !== "object" || value instanceof Date) return value;
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("formula" in value || "sharedFormula" in value) return primitive(value.result as ExcelJS.CellValue);
  if ("text" in value) return String(value.text);
  if ("error" in value) return String(value.error);
  return null;
}
