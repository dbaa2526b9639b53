import type { Row } from "@meterline/api-client";
import type { FieldDef } from "@meterline/contracts";
import type { TableColumnsType } from "antd";

/** Cell padding left and right at every density, with room for the sort or filter icons none have. */
const PADDING = 34;
/** The widest a value column grows to fit its values before it ellipsises (free texts are cut sooner). */
const WIDEST: Partial<Record<FieldDef["type"], number>> = { text: 200 };
const WIDEST_DEFAULT = 240;

let canvas: CanvasRenderingContext2D | null | undefined;

/** The width a text takes in the console's font (the canvas measures; a rough sum outside a browser). */
export function textWidth(text: string, bold = false): number {
  if (canvas === undefined) {
    try {
      canvas = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
    } catch {
      canvas = null;
    }
  }
  if (canvas) {
    const family = getComputedStyle(document.body).fontFamily || "sans-serif";
    canvas.font = `${bold ? 600 : 400} 14px ${family}`;
    return Math.ceil(canvas.measureText(text).width);
  }
  let width = 0;
  for (const char of text) width += /[\u2e80-\uffff]/.test(char) ? 14 : 8;
  return width;
}

/** A header never cut: its column is at least as wide as its title. */
export const headerWidth = (title: string) => textWidth(title, true) + PADDING;

/**
 * Fields an operator reads whole and copies: meter and collector numbers, rooms with their
 * building, codes and phones, and times. They never wrap nor ellipsise; their column fits the
 * longest value on the page.
 */
const WHOLE_NAMES = new Set(["productCode", "collectorCode", "roomName", "roomCode", "ownerCode", "phone"]);
const WHOLE_TARGETS = new Set(["room", "meter", "water", "collector"]);

export function readWhole(name: string, field: FieldDef): boolean {
  if (WHOLE_NAMES.has(name) || field.type === "datetime" || field.type === "date") return true;
  if (field.pattern?.message.startsWith("meterAddress")) return true;
  if (field.ref && WHOLE_TARGETS.has(field.ref.resource)) return true;
  return Boolean(
    field.refBy && Object.values(field.refBy.resources).some((r) => WHOLE_TARGETS.has(r.resource)),
  );
}

/** The width of a column read whole: its title or its longest value on the page. */
export function wholeWidth(title: string, _field: FieldDef, values: Iterable<string>): number {
  let widest = headerWidth(title);
  for (const value of values) widest = Math.max(widest, textWidth(value) + PADDING);
  return widest;
}

/**
 * The width of a value column: its values on the page up to a limit (the definition's width, else
 * its type's), then it ellipsises; never less than its title.
 */
export function valueWidth(title: string, field: FieldDef, values: Iterable<string>): number {
  const widest = field.width ?? WIDEST[field.type] ?? WIDEST_DEFAULT;
  let content = 0;
  for (const value of values) content = Math.max(content, textWidth(value) + PADDING);
  return Math.max(Math.min(content, widest), headerWidth(title));
}

/** Columns a page adds by hand get a width too: a table scrolled sideways needs every width set. */
export function withWidths(columns: TableColumnsType<Row>): TableColumnsType<Row> {
  return columns.map((column) =>
    typeof column.width === "number"
      ? column
      : { ...column, width: headerWidth(typeof column.title === "string" ? column.title : "") + 60 },
  );
}

/** The table's whole width, for the sideways scroll. */
export const totalWidth = (columns: TableColumnsType<Row>, extra = 0) =>
  columns.reduce((sum, column) => sum + (typeof column.width === "number" ? column.width : 120), extra);
