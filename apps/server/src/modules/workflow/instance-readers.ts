import { ApiError } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { type CurrentUser, isAdmin } from "../auth/current-user.ts";

const notParticipant = () =>
  new ApiError(403, "无权限查看该流程: 仅流程的发起人、经办人 (含待签收的候选人) 与管理员可查看");

/**
 * Who may read an instance (its steps, its diagram, its leave request): the tenant's administrators
 * (流程跟踪 lists every instance to them) any of the own tenant's, everyone else only those they
 * took part in: started, or were handed a task of, by name or through a role, or acted on. A
 * colleague's leave request is not read by guessing its id.
 */
export async function requireInstanceReader(
  db: Queryable,
  caller: CurrentUser,
  instanceId: string,
): Promise<void> {
  if (isAdmin(caller)) return;
  if (!caller.userId) throw notParticipant();
  const [row] = await db.query<{ mine: boolean }>(
    `select (i.start_user = $3::bigint
             or exists (select 1 from wf_task t
                         where t.instance_id = i.id
                           and (t.assignee = $3::bigint or $3::bigint = any(t.candidate_users)
                                or t.candidate_groups && $4::varchar[]))
             or exists (select 1 from wf_history h where h.instance_id = i.id and h.user_id = $3::bigint)) as mine
       from wf_instance i
      where i.id = $1 and i.tenant_id = $2`,
    [instanceId, caller.tenantId, caller.userId, caller.roleAliases],
  );
  // Another tenant's instance, or none: the route answers that it does not exist, as for anyone.
  if (row && !row.mine) throw notParticipant();
}
