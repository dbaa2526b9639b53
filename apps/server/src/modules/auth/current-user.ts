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

/**
 * A caller that is not a signed-in person (seeding, fixtures): no roles, no session, written into
 * audit columns as `userId` (empty for none).
 */
export function serviceUser(
  tenantId: string,
  account: string,
  options: { userId?: string; realName?: string } = {},
): CurrentUser {
  return {
    userId: options.userId ?? "",
    tenantId,
    account,
    userName: account,
    realName: options.realName ?? account,
    roleIds: [],
    roleAliases: [],
    deptIds: [],
    postIds: [],
    clientId: "",
    sessionId: "",
    jti: "",
  };
}

export const isAdministrator = (user: CurrentUser) => user.roleAliases.includes(ROLE_ADMINISTRATOR);
/** A tenant administrator or the platform administrator. */
export const isAdmin = (user: CurrentUser) => isAdministrator(user) || user.roleAliases.includes(ROLE_ADMIN);

export const csv = (value: string | null | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "" && s !== "-1");
