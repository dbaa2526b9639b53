import type { Page } from "@meterline/contracts";
import { resourceBase, resources } from "@meterline/contracts";
import { api } from "../../../app/api.ts";

const base = resourceBase(resources.owner);

/** What happened to an owner (pms owner-log.ts). */
export const OWNER_ACTIONS = [
  "create",
  "update",
  "remove",
  "bindRoom",
  "unbindRoom",
  "joinGroup",
  "leaveGroup",
  "import",
] as const;
export type OwnerAction = (typeof OWNER_ACTIONS)[number];

/** One entry of owner/getOwnerLog; `content` is JSON text. */
export interface OwnerLogEntry {
  id: string;
  ownerId: string;
  ownerName: string;
  action: string;
  content: string;
  createUserName: string;
  createTime: string;
}

export const ownerLog = (ownerId: string, current: number, size: number) =>
  api.get<Page<OwnerLogEntry>>(`${base}/getOwnerLog`, { ownerId, current, size });
