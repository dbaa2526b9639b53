import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";
import { sendSheet } from "../../components/import/send-sheet.ts";

/** Which reading log a correction goes to: the electric log (also the hand-read list) or the water one. */
export type ReadingKind = "electric" | "water";

const logPath: Record<ReadingKind, string> = {
  electric: "/api/blade-pms/dataread",
  water: "/api/blade-pms/waterdataread",
};

/** A read entered by hand; registers as typed (decimal text), the time as the tenant's wall clock. */
export interface ManualReadInput {
  meterId: string;
  totalValue: string;
  readTime?: string;
  tipValue?: string;
  peakValue?: string;
  peaceValue?: string;
  lowValue?: string;
}

/** `dataread/submit` or `waterdataread/submit`: the server checks the order of reads and recomputes the day. */
export const submitManualRead = (kind: ReadingKind, read: ManualReadInput) =>
  api.post<{ id: string }>(`${logPath[kind]}/submit`, read);

/** `…/remove`: voids a read, kept and marked with the operator and the reason. */
export const voidRead = (kind: ReadingKind, id: string, reason: string) =>
  api.post<unknown>(`${logPath[kind]}/remove`, { ids: id, reason });

/** What an import of hand reads answers: rows entered, rows refused and the sheet of the refused. */
export interface ManualReadImportResult {
  imported: number;
  rejected: number;
  rejectedFile: string;
}

/** The server reads the whole sheet, row by row, before it answers. */
const IMPORT_TIMEOUT_MS = 180_000;

export const manualReadTemplateUrl = (kind: ReadingKind) => withToken(`${logPath[kind]}/import-template`);

export const importManualReads = (kind: ReadingKind) => (file: File, onProgress: (percent: number) => void) =>
  sendSheet<ManualReadImportResult>(
    { url: `${logPath[kind]}/import`, timeoutMs: IMPORT_TIMEOUT_MS },
    file,
    onProgress,
  );
