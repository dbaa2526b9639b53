import { compactFilters, type QueryParams } from "@meterline/api-client";
import { api } from "../../../app/api.ts";
import { withToken } from "../../../app/download.ts";

const pms = "/api/blade-pms";

export const attentionPagePath = `${pms}/attention/page`;

/** The download of every account the search lists (paging left out). */
export const attentionExportHref = (filters: QueryParams) =>
  withToken(`${pms}/attention/export`, compactFilters(filters));

/** What a reminder did, per owner: queued, no mobile number, already reminded today. */
export interface ReminderOutcome {
  queued: number;
  noPhone: number;
  alreadyToday: number;
  owners: number;
}

/** Reminds the owners of the ticked accounts, or (none ticked) of every account the search lists. */
export const remindOwners = (filters: QueryParams, accountIds: string[]) =>
  api.post<ReminderOutcome>(
    `${pms}/attention/remind`,
    undefined,
    compactFilters({ ...filters, accountIds: accountIds.length > 0 ? accountIds.join(",") : undefined }),
  );
