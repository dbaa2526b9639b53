import type { LocalLogEntry } from "@meterline/contracts";
import { store } from "./store.ts";

/** Oldest entries are dropped beyond this, so localStorage never fills up with a crash loop. */
const MAX_LOGS = 200;

export function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** `yyyy-MM-dd HH:mm:ss` in local time, the wire date format (contract §1). */
export function formatDateTime(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

export function addLog(entry: Omit<LocalLogEntry, "time"> & { time?: string }): void {
  const log: LocalLogEntry = { ...entry, time: entry.time ?? formatDateTime(new Date()) };
  store.setState((state) => ({ logs: [log, ...state.logs].slice(0, MAX_LOGS) }));
}

export function clearLogs(): void {
  store.setState({ logs: [] });
}
