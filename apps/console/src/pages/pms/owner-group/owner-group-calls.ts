import { type Row, serverMessageOf } from "@meterline/api-client";
import { type Page, resourceBase, resources, type SwitchOutcome } from "@meterline/contracts";
import { api } from "../../../app/api.ts";

const groups = resourceBase(resources.ownerGroup);
const owners = resourceBase(resources.owner);
/** The server's page size limit; a group's members are listed on one page. */
const MEMBER_LIMIT = 1000;

/** An owner of the binding lists; members carry the relation id that unbinds them. */
export interface GroupOwner {
  id: string;
  ownerName: string;
  ownerCode: string;
  phone: string;
  relationId?: string;
}

/** Owners in no group (the left list). */
export const ungroupedOwners = () => api.get<GroupOwner[]>(`${groups}/unbindOwnerGroup`);

/** The owners of one group (the right list), from owner/page filtered by the group. */
export async function groupMembers(groupId: string): Promise<GroupOwner[]> {
  const page = await api.get<Page<Row>>(`${owners}/page`, {
    ownerGroupId: groupId,
    current: 1,
    size: MEMBER_LIMIT,
  });
  return page.records.map((row) => ({
    id: String(row.id),
    ownerName: String(row.ownerName ?? ""),
    ownerCode: String(row.ownerCode ?? ""),
    phone: String(row.phone ?? ""),
    relationId: String(row.relationId ?? ""),
  }));
}

export const bindOwners = (groupId: string, ownerIds: readonly string[]) =>
  api.post<{ bound: number }>(`${groups}/bindOwner`, { pid: groupId, childIdList: ownerIds });

export const unbindOwner = (relationId: string) =>
  api.post<unknown>(`${groups}/unbindOwner`, undefined, { relationId });

/**
 * Queues a supply cut for every meter of the group's owners; answers the server's own words
 * ("已下发 N 条断电命令", and how many meters were left out) and whether any was left out.
 */
export async function cutGroupSupply(groupId: string): Promise<{ said: string; skipped: number }> {
  const body = await api.request(`${groups}/closeMeter`, { method: "POST", query: { id: groupId } });
  return { said: serverMessageOf(body), skipped: (body as { data: SwitchOutcome }).data.skipped.length };
}
