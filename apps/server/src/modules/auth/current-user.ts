import { ROLE_ADMIN, ROLE_ADMINISTRATOR } from "@meterline/contracts";

/** The caller, as the access token says (contract §6). The tenant comes from here, never a header. */
export interface CurrentUser {
  userId: string;
  tenantId: string;
  account: string;
  userName: string;
  realName: string;
  roleIds: string[];
  roleAliases: string[];
  deptIds: string[];
  postIds: string[];
  clientId: string;
  sessionId: string;
  jti: string;
}

export const isAdministrator = (user: CurrentUser) => user.roleAliases.includes(ROLE_ADMINISTRATOR);
/** A tenant administrator or the platform administrator. */
export const isAdmin = (user: CurrentUser) => isAdministrator(user) || user.roleAliases.includes(ROLE_ADMIN);

export const csv = (value: string | null | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "" && s !== "-1");
