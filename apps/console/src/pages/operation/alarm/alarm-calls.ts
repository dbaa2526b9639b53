import { compactFilters, type QueryParams, type Row } from "@meterline/api-client";
import type { Page } from "@meterline/contracts";
import { api } from "../../../app/api.ts";
import { withToken } from "../../../app/download.ts";

const pms = "/api/blade-pms";

/** The bell's list (alarming and not ignored) and the screen's, both paged and newest first. */
export const checkRecordPaths = {
  upPage: `${pms}/checkRecord/upPage`,
  page: `${pms}/checkRecord/page`,
} as const;

/** The download of the records the search matches (paging left out: the whole search). */
export const checkRecordExportHref = (filters: QueryParams) =>
  withToken(`${pms}/checkRecord/export`, compactFilters(filters));

/** Alarming records per rule, most first (the home page's card). */
export interface RuleCount {
  ruleCode: string;
  checkRuleName: string;
  count: number;
}

/** `tenantId`: the one tenant the platform administrator picked on the home page (every tenant without). */
export const loadRuleCounts = (tenantId?: string) =>
  api.get<RuleCount[]>(`${pms}/checkRecord/ruleCounts`, tenantId ? { tenantId } : {});

/**
 * The sentence to speak for a new alarm of a rule (message/SpeechByContent, type 2), in the
 * console's language rather than the browser's. Silent: a voice that fails is no reason for a toast.
 */
export const loadSpeech = (checkRuleName: string, language: "zh" | "en") =>
  api
    .request(`${pms}/message/SpeechByContent`, {
      query: { type: 2, checkRuleName },
      headers: { "Accept-Language": language === "en" ? "en" : "zh-CN" },
      silent: true,
    })
    .then((answer) => String((answer as { data: unknown }).data ?? ""));

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

/** The operators' ignores, newest first (checkIgnore/page); `inEffect` true lists those still at work. */
export const checkIgnorePage = `${pms}/checkIgnore/page`;

/** Lifts ignores: their rules speak again for their meters (checkIgnore/remove). */
export const liftIgnores = (ids: readonly string[]) =>
  api.post<{ removed: number }>(`${pms}/checkIgnore/remove`, undefined, { ids: ids.join(",") });
