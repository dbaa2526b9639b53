import { resourceBase, resources } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";
import { sendSheet } from "../../components/import/send-sheet.ts";

const base = resourceBase(resources.user);

/** The answer of import-user (contract §10.1); `rejectedFile` links a sheet of the rows not imported. */
export interface ImportResult {
  created: number;
  updated: number;
  rejected: number;
  rejectedFile: string;
}

/** What platform-detail answers: the user, its platform (user type) and that platform's settings. */
export interface PlatformDetail {
  id: string;
  account: string;
  realName: string;
  userType: number | string;
  userExt: string;
}

/** The server reads the whole sheet before it answers; 5000 rows take longer than a normal call. */
const IMPORT_TIMEOUT_MS = 180_000;

/** Sends a workbook to import-user; `isCovered` says whether existing accounts are overwritten. */
export const importUsers = (file: File, covered: boolean, onProgress: (percent: number) => void) =>
  sendSheet<ImportResult>(
    { url: `${base}/import-user`, timeoutMs: IMPORT_TIMEOUT_MS, query: { isCovered: covered ? 1 : 0 } },
    file,
    onProgress,
  );

/** The download link of the import template; it needs the token like every export. */
export const importTemplateUrl = () => withToken(`${base}/export-template`);

export const platformDetail = (id: string) => api.get<PlatformDetail>(`${base}/platform-detail`, { id });

export const updatePlatform = (change: { userId: string; userType: number; userExt: string }) =>
  api.post<unknown>(`${base}/update-platform`, change);

/** 1 enables the user, 0 disables it: its sessions end at once and it cannot sign in. */
export const setUserStatus = (id: string, status: 0 | 1) =>
  api.post<unknown>(`${base}/update`, { id, status });

/** Sets the roles of every listed user (their sessions end: roles ride in the token). */
export const grantRoles = (userIds: readonly string[], roleIds: readonly string[]) =>
  api.post<unknown>(`${base}/grant`, { userIds: userIds.join(","), roleIds: roleIds.join(",") });

/** Gives the users their tenant's initial password (parameter account.initPassword) and signs them out. */
export const resetPasswords = (userIds: readonly string[]) =>
  api.post<unknown>(`${base}/reset-password`, { userIds: userIds.join(",") });

/** Clears the failed sign-in counters that locked these users out (contract §5.7). */
export const unlockUsers = (userIds: readonly string[]) =>
  api.post<unknown>(`${base}/unlock`, { userIds: userIds.join(",") });
