import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import type { Download, Locator, Page } from "playwright-core";

async function readAll(stream: NodeJS.ReadableStream): Promise<ArrayBuffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  const all = Buffer.concat(chunks);
  return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
}

/** The first sheet of a downloaded workbook as rows of cell texts (a sheet-less file throws). */
export async function sheetRows(download: Download): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await readAll(await download.createReadStream()));
  const sheet = book.worksheets[0];
  if (!sheet) throw new Error(`${download.suggestedFilename()} has no sheet`);
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(values.map((value) => (value === null || value === undefined ? "" : String(value))));
  });
  return rows;
}

/** Clicks what starts a download and waits for it. */
export async function downloadOf(page: Page, click: () => Promise<void>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return download;
}

/** Clicks the export button of a resource screen and reads the .xlsx it downloads. */
export async function exportSheet(page: Page, screen: Locator): Promise<string[][]> {
  const download = await downloadOf(page, () => screen.getByTestId("crud-export").click());
  assert.match(download.suggestedFilename(), /\.xlsx$/);
  return sheetRows(download);
}

/** An .xlsx whose first sheet holds these rows, as a browser would upload it. */
export async function workbookOf(rows: readonly (readonly string[])[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Sheet1");
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await book.xlsx.writeBuffer());
}
