import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";

/** What happened to an owner, as the owner log's `action` column records it. */
export type OwnerAction =
  | "create"
  | "update"
  | "remove"
  | "bindRoom"
  | "unbindRoom"
  | "joinGroup"
  | "leaveGroup"
  | "import";

/**
 * One entry of an owner's change log (spec §7 owner/getOwnerLog), written in the transaction of
 * the change itself so the log never claims a change that was rolled back, nor misses one.
 */
export async function writeOwnerLog(
  db: Queryable,
  user: CurrentUser,
  entry: { tenantId: string; ownerId: string; action: OwnerAction; content: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `insert into pms_owner_log (id, tenant_id, owner_id, action, content, create_user, create_user_name)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      nextId(),
      entry.tenantId,
      entry.ownerId,
      entry.action,
      JSON.stringify(entry.content),
      user.userId || null,
      user.realName || user.account,
    ],
  );
}

/** Fields whose change matters to an owner's money or identity: logged with old and new values. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (String(before[key] ?? "") !== String(value ?? ""))
      changes[key] = { from: before[key] ?? null, to: value ?? null };
  }
  return changes;
}
