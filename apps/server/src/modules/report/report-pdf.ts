import { existsSync, readFileSync } from "node:fs";
import type { ReportResult, ResultColumn } from "./report.service.ts";

/**
 * The font report PDFs are written in. Chinese needs a CJK font and nothing is downloaded at run
 * time: REPORT_PDF_FONT names a .ttf/.otf/.ttc file (REPORT_PDF_FONT_NAME the face inside a .ttc),
 * by default Debian's fonts-noto-cjk. pdfkit embeds only the glyphs a report uses.
 */
export const DEFAULT_PDF_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
const DEFAULT_PDF_FONT_NAME = "NotoSansCJKsc-Regular";

let fontFile: { path: string; bytes: Buffer } | undefined;

/** The font's bytes, read once per path; undefined when the file is missing (Helvetica then). */
function cjkFont(): { bytes: Buffer; name: string | undefined } | undefined {
  const path = process.env.REPORT_PDF_FONT || DEFAULT_PDF_FONT;
  if (fontFile?.path !== path) {
    if (!existsSync(path)) return undefined;
    fontFile = { path, bytes: readFileSync(path) };
  }
  const name =
    process.env.REPORT_PDF_FONT_NAME || (path.endsWith(".ttc") ? DEFAULT_PDF_FONT_NAME : undefined);
  return { bytes: fontFile.bytes, name };
}

/** Without a CJK font the PDF still opens; characters the base font lacks show as "?". */
const latinOnly = (text: string) => text.replace(/[^\x20-\x7e]/g, "?");

const cell = (value: string | null | undefined) => value ?? "";

/**
 * A new landscape A4 document titled `title`, in the CJK font when there is one; `text` makes a
 * string printable in the font it got.
 */
export async function pdfDocument(title: string) {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 36,
    info: { Title: title, Creator: "Meterline" },
  });
  const font = cjkFont();
  if (font) {
    doc.registerFont("report", font.bytes, font.name);
    doc.font("report");
  }
  return { doc, text: font ? (s: string) => s : latinOnly };
}

/**
 * A report as a PDF stream: title, the date range and the table, landscape A4, the header row
 * repeated on every page. The caller bounds the rows.
 */
export async function reportPdf(
  result: ReportResult,
  note: string | undefined,
): Promise<NodeJS.ReadableStream> {
  const { doc, text } = await pdfDocument(result.name);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = doc.page.height - doc.page.margins.bottom;
  const columnWidth = width / Math.max(result.columns.length, 1);
  const rowHeight = 18;

  doc.fontSize(16).text(text(result.name), left, doc.page.margins.top, { width });
  const range = [result.definition.dateFrom, result.definition.dateTo].filter(Boolean).join(" ~ ");
  doc.fontSize(9).text(text([range, note].filter(Boolean).join("  ")), left, doc.y + 4, { width });

  const line = (values: string[], y: number) => {
    values.forEach((value, i) => {
      doc.text(text(value), left + i * columnWidth + 2, y + 4, {
        width: columnWidth - 4,
        height: rowHeight - 4,
        lineBreak: false,
        ellipsis: true,
        align: result.columns[i]?.measure ? "right" : "left",
      });
    });
    doc
      .moveTo(left, y + rowHeight)
      .lineTo(left + width, y + rowHeight)
      .lineWidth(0.5)
      .stroke("#999999");
  };
  const header = (y: number) =>
    line(
      result.columns.map((c: ResultColumn) => c.zh),
      y,
    );

  let y = doc.y + 10;
  doc.fontSize(10);
  header(y);
  y += rowHeight;
  for (const row of result.rows) {
    if (y + rowHeight > bottom) {
      doc.addPage();
      y = doc.page.margins.top;
      header(y);
      y += rowHeight;
    }
    line(
      result.columns.map((c) => cell(row[c.key])),
      y,
    );
    y += rowHeight;
  }
  doc.end();
  return doc;
}
