import { compactFilters, type Row } from "@meterline/api-client";
import type { Page } from "@meterline/contracts";
import { api } from "../../../app/api.ts";

const pms = "/api/blade-pms";

/** The bell's list (alarming and not ignored) and the screen's, both paged and newest first. */
export const checkRecordPaths = {
  upPage: `${pms}/checkRecord/upPage`,
  page: `${pms}/checkRecord/page`,
} as const;

/** IGNORE_TYPE (spec §4): this time, seven days, permanently (the last needs a reason). */
export type IgnoreType = 1 | 2 | 3;
export const IGNORE_TYPES: readonly IgnoreType[] = [1, 2, 3];

/** The bell's first page (spec §7: page 1 of size 10). Silent: a poll that fails shows in the bell, not as a toast every 30 s. */
export const loadUpPage = (current = 1, size = 10) =>
  api
    .request(checkRecordPaths.upPage, { query: { current, size }, silent: true })
    .then((answer) => (answer as { data: Page<Row> }).data);

export const ignoreRecord = (recordId: string, ignoreType: IgnoreType, reason?: string) =>
  api.post<unknown>(`${pms}/checkIgnore/save`, undefined, compactFilters({ recordId, ignoreType, reason }));

export const closeRecords = (ids: string) =>
  api.post<{ closed: number }>(`${pms}/checkRecord/close`, undefined, { ids });

/** The family's console removes without the /api prefix (spec §7 checkRecord). */
export const removeRecords = (ids: string) =>
  api.post<unknown>("/blade-pms/checkRecord/remove", undefined, { ids });

export interface RecordHistory {
  fromStatus: number;
  toStatus: number;
  cause: string;
  createTime: string;
}

export const loadRecordDetail = (id: string) =>
  api.get<Row & { history?: RecordHistory[] }>(`${pms}/checkRecord/detail`, { id });
