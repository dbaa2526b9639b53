/** Text a spreadsheet program would take for a formula (or a DDE call) when the cell is edited or saved as CSV. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A value as an exported cell: names are stored as typed, so text that starts like a formula is
 * given a leading apostrophe and stays text in every program that opens the sheet.
 */
export function safeCell(value: unknown): unknown {
  return typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : value;
}

/** The text a user typed, from a cell `safeCell` wrote: our own rejected sheets are imported again. */
export function typedText(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}
