import { type Unzipped, unzipSync, zipSync } from "fflate";
import type { SheetBounds, SheetRefusal } from "./sheet-bounds.ts";

/** Thrown from fflate's filter to stop before anything is inflated. */
class Refused extends Error {
  constructor(readonly refusal: SheetRefusal) {
    super(refusal.kind);
  }
}

/**
 * Opens an .xlsx (a ZIP archive) within the bounds. The archive's central directory is read first
 * and the file refused when its entries say they inflate beyond the bound, before any of them is
 * inflated. Each entry then inflates into a buffer of exactly its stated size, so an entry that
 * lies about its size cannot grow past it either.
 */
export function openArchive(
  file: Uint8Array,
  bounds: SheetBounds,
): { ok: true; files: Unzipped } | SheetRefusal {
  let entries = 0;
  let inflated = 0;
  try {
    const files = unzipSync(file, {
      filter(entry) {
        entries++;
        inflated += entry.originalSize;
        if (entries > bounds.maxEntries) throw new Refused({ kind: "entries", limit: bounds.maxEntries });
        if (inflated > bounds.maxInflatedBytes) {
          throw new Refused({ kind: "inflated", limit: bounds.maxInflatedBytes });
        }
        return true;
      },
    });
    return { ok: true, files };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    return { kind: "unreadable" };
  }
}

/** Parts the streaming reader needs before any worksheet, else it parks worksheets in temp files. */
const LEADING = ["xl/_rels/workbook.xml.rels", "xl/workbook.xml", "xl/sharedStrings.xml", "xl/styles.xml"];
const EMPTY_SHARED_STRINGS = new TextEncoder().encode(
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
);
const sheetNumber = (name: string) =>
  Number(/^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name)?.[1] ?? Number.NaN);

/**
 * The checked entries again as a stored (uncompressed) archive in the order the streaming reader
 * wants: workbook parts first, then the worksheets by number. The reader then streams each sheet
 * straight from memory, and never sees an entry this check did not.
 */
export function readerArchive(files: Unzipped): Uint8Array {
  const ordered: Unzipped = {};
  if (!files["xl/sharedStrings.xml"]) files["xl/sharedStrings.xml"] = EMPTY_SHARED_STRINGS;
  for (const name of LEADING) if (files[name]) ordered[name] = files[name];
  const sheets = Object.keys(files)
    .filter((name) => !Number.isNaN(sheetNumber(name)))
    .sort((a, b) => sheetNumber(a) - sheetNumber(b));
  for (const name of sheets) ordered[name] = files[name]!;
  return zipSync(ordered, { level: 0 });
}
