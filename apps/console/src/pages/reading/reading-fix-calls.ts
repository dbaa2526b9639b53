import { api } from "../../app/api.ts";

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
