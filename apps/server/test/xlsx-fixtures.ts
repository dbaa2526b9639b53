import ExcelJS from "exceljs";
import { unzipSync, zipSync } from "fflate";

/** An .xlsx of one sheet: the header row, then `rows` as given. */
export async function xlsxOf(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Sheet1");
  sheet.addRow([...header]);
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * A spreadsheet bomb: a real .xlsx whose sheet holds `rows` data rows of inline text, written
 * straight as XML so that building it takes no time, and deflated to a small file.
 */
export async function xlsxBomb(header: readonly string[], rows: number): Promise<Buffer> {
  const files = unzipSync(await xlsxOf(header, []));
  const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    `<row r="1">${header.map((h, i) => cell(`${String.fromCharCode(65 + i)}1`, h)).join("")}</row>`,
  ];
  for (let r = 2; r <= rows + 1; r++)
    parts.push(`<row r="${r}">${cell(`A${r}`, "x")}${cell(`B${r}`, `${r}`)}</row>`);
  parts.push("</sheetData></worksheet>");
  files["xl/worksheets/sheet1.xml"] = new TextEncoder().encode(parts.join(""));
  return Buffer.from(zipSync(files, { level: 6 }));
}

/**
 * A real .xlsx whose first directory entry claims to inflate to 2 GB and whose data is not even
 * valid deflate: refused with the size bound it is known never to have been inflated (inflating it
 * would fail as unreadable instead).
 */
export async function xlsxClaimingHugeEntry(): Promise<Buffer> {
  const file = await xlsxOf(["a"], [["b"]]);
  const entry = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  file.writeUInt32LE(0x7fff_ffff, entry + 24);
  const localHeader = file.readUInt32LE(entry + 42);
  const dataStart =
    localHeader + 30 + file.readUInt16LE(localHeader + 26) + file.readUInt16LE(localHeader + 28);
  file.fill(0xff, dataStart, dataStart + 8);
  return file;
}
