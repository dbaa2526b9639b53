import { qgdw1376 } from "@meterline/protocols";
import type { MeterInfo } from "../model.ts";

/**
 * The concentrator's meter file (AFN 04 F10) kept in step with the registry's meters behind it.
 * Each meter has one row whose index (装置序号) is also its measurement point pn; a meter keeps its
 * row as long as it stays, so data read under a pn never changes meaning. A meter that leaves has
 * its row written with pn 0, which the standard defines as deleting that row.
 */
export interface FileRow {
  index: number;
  pn: number;
  address: string;
  protocol: number;
  port: number;
  baud: number | null;
}

/** The most rows a concentrator holds (pn 1..2040). */
export const MAX_ROWS = 2040;

/**
 * The row a meter needs: its protocol code and the serial speed of its port (the standards'
 * defaults: DL/T 645 2400 bps, DL/T 698.45 9600 bps). Water meters are not filed: undefined.
 */
export function rowSettings(meter: MeterInfo): Pick<FileRow, "protocol" | "port" | "baud"> | undefined {
  const port = meter.channel;
  if (!Number.isInteger(port) || port < 1 || port > 31) return undefined;
  switch (meter.protocol) {
    case "dlt645-2007":
      return { protocol: qgdw1376.MeterProtocol.DLT645_2007, port, baud: 2400 };
    case "dlt645-1997":
      return { protocol: qgdw1376.MeterProtocol.DLT645_1997, port, baud: 1200 };
    case "dlt698":
      return { protocol: qgdw1376.MeterProtocol.DLT698_45, port, baud: 9600 };
    default:
      return undefined;
  }
}

export interface FilePlan {
  /** Rows to write, deletions (pn 0) included, in index order. */
  writes: qgdw1376.MeterFileInput[];
  /** The file once every write is confirmed. */
  rows: FileRow[];
  /** Meters that could not be filed (no protocol code, bad port, file full). */
  skipped: string[];
}

/** What to write so that the file `current` holds exactly `meters` (pure). */
export function planMeterFile(current: readonly FileRow[], meters: readonly MeterInfo[]): FilePlan {
  const wanted = new Map<string, Pick<FileRow, "protocol" | "port" | "baud">>();
  const skipped: string[] = [];
  for (const meter of [...meters].sort((a, b) => a.address.localeCompare(b.address))) {
    const settings = rowSettings(meter);
    if (settings && /^\d{12}$/.test(meter.address)) wanted.set(meter.address, settings);
    else skipped.push(meter.address);
  }
  const writes: qgdw1376.MeterFileInput[] = [];
  const rows: FileRow[] = [];
  const used = new Set<number>();
  for (const row of current) {
    const settings = wanted.get(row.address);
    if (!settings || used.has(row.index)) {
      writes.push({ ...rowInput(row), pn: 0 });
      continue;
    }
    wanted.delete(row.address);
    used.add(row.index);
    const kept = { ...row, pn: row.index, ...settings };
    rows.push(kept);
    if (
      kept.protocol !== row.protocol ||
      kept.port !== row.port ||
      kept.baud !== row.baud ||
      row.pn !== row.index
    )
      writes.push(rowInput(kept));
  }
  let next = 1;
  for (const [address, settings] of wanted) {
    while (used.has(next)) next++;
    if (next > MAX_ROWS) {
      skipped.push(address);
      continue;
    }
    used.add(next);
    const row = { index: next, pn: next, address, ...settings };
    rows.push(row);
    writes.push(rowInput(row));
  }
  // A row freed and taken again is simply overwritten by its newcomer: no deletion first.
  const final = writes.filter((row) => row.pn !== 0 || !used.has(row.index));
  final.sort((a, b) => a.index - b.index);
  rows.sort((a, b) => a.index - b.index);
  return { writes: final, rows, skipped };
}

function rowInput(row: FileRow): qgdw1376.MeterFileInput {
  return {
    index: row.index,
    pn: row.pn,
    port: row.port,
    baud: row.baud,
    protocol: row.protocol,
    address: row.address,
  };
}

/** Rows of a decoded AFN 0A F10 answer that are in use (pn 0 rows are deleted ones). */
export function rowsOf(entries: readonly qgdw1376.MeterFileEntry[]): FileRow[] {
  return entries
    .filter((entry) => entry.pn !== 0 && /^\d{12}$/.test(entry.address))
    .map((entry) => ({
      index: entry.index,
      pn: entry.pn,
      address: entry.address,
      protocol: entry.protocol,
      port: entry.port,
      baud: entry.baud,
    }));
}
