import { pickerCodesOf } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { requirePermission } from "../../crud/permissions.ts";
import { askedTenant } from "../../crud/tenant-column.ts";
import type { Queryable } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";

/**
 * The registry's trees are pickers: a room tree answers the screens that pick rooms (owner-room,
 * room-meter, the reading searches), an owner tree those that pick owners, and so on.
 */
export const requirePicker = (db: Queryable, request: FastifyRequest, resource: string) =>
  requirePermission(db, request, pickerCodesOf(resource));

/**
 * The tenant a registry read looks at: the caller's own, or for the platform administrator the
 * `tenantId` it names (contract §9.1: the administrator crosses tenants explicitly); a malformed
 * code is a 400 naming it, for anyone.
 */
export function registryTenant(user: CurrentUser, params: Record<string, unknown>): string {
  const asked = askedTenant(params);
  return asked && isAdministrator(user) ? asked : user.tenantId;
}

/**
 * The tenant a money list reads: the caller's own; for the platform administrator the one it names,
 * or every tenant (null) when it names none, as its registry lists do. Its rows then say whose each is.
 */
export function listTenant(user: CurrentUser, params: Record<string, unknown>): string | null {
  const asked = askedTenant(params);
  if (!isAdministrator(user)) return user.tenantId;
  return asked ?? null;
}
