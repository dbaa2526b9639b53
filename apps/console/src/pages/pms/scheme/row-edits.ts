/**
 * Edits of a list of rows held as one field value: replace part of a row, or drop one. Each editor
 * passes its own `write`, which turns the rows back into the JSON the server reads.
 */
export function rowEdits<T extends object>(rows: readonly T[], write: (next: T[]) => void) {
  return {
    change: (index: number, part: Partial<T>) =>
      write(rows.map((row, i) => (i === index ? { ...row, ...part } : row))),
    without: (index: number): T[] => rows.filter((_, i) => i !== index),
  };
}
