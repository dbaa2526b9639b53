import { readCodesOf, resources } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { optionalString } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Queryable } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";

const REGISTRY = [
  resources.area,
  resources.room,
  resources.owner,
  resources.ownerRoom,
  resources.ownerGroup,
  resources.roomMeter,
  resources.meter,
  resources.water,
  resources.collector,
];

/**
 * The registry's trees and pickers serve several screens (a room picker on the owner-room screen,
 * meter trees on the account screens), so seeing any registry screen is enough to read them.
 */
const READ_CODES = REGISTRY.flatMap(readCodesOf);

export const requireRegistryRead = (db: Queryable, request: FastifyRequest) =>
  requirePermission(db, request, READ_CODES);

/**
 * The tenant a registry read looks at: the caller's own, or for the platform administrator the
 * `tenantId` it names (contract §9.1: the administrator crosses tenants explicitly).
 */
export function registryTenant(user: CurrentUser, params: Record<string, unknown>): string {
  const asked = optionalString(params, "tenantId");
  return asked && isAdministrator(user) ? asked : user.tenantId;
}
