const DAY_MS = 86_400_000;

/**
 * Whole days of a leave, as the server counts them (started days, at least one); null until both
 * ends are set and the end is after the start.
 */
export function leaveDays(start: Date | null | undefined, end: Date | null | undefined): number | null {
  if (!start || !end || end.getTime() <= start.getTime()) return null;
  return Math.max(1, Math.ceil((end.getTime() - start.getTime()) / DAY_MS));
}
