import type { FastifyInstance } from "fastify";
import { parseDateTime } from "../../contract/dates.ts";
import { ok } from "../../contract/envelope.ts";
import { badRequest, forbidden, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams, requiredString } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { flowTime, taskUser } from "./flow-items.ts";
import { requireInstanceReader } from "./instance-readers.ts";
import { latestDefinitionId } from "./workflow.repository.ts";
import { startInstance } from "./workflow.service.ts";

const BASE = "/api/blade-desk/process/leave";
const DAY_MS = 86_400_000;
/** A leave longer than a year is a typing error, not a leave. */
const MAX_DAYS = 366;

/** Leaders of the starter's departments: users there holding the role alias `manager`. */
async function departmentLeaders(db: Queryable, caller: CurrentUser): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `select u.id from sys_user u
      where u.tenant_id = $1 and u.is_deleted = 0 and u.status = 1 and u.id <> $2
        and string_to_array(u.dept_id, ',') && $3::text[]
        and exists (select 1 from sys_role r where r.tenant_id = u.tenant_id and r.is_deleted = 0
                     and r.role_alias = 'manager' and r.id::text = any(string_to_array(u.role_id, ',')))
      limit 50`,
    [caller.tenantId, caller.userId, caller.deptIds],
  );
  return rows.map((r) => r.id);
}

function leaveTime(params: Record<string, unknown>, name: string, timeZone: string): Date {
  const text = requiredString(params, name);
  const date = text.length <= 19 ? parseDateTime(text, timeZone) : undefined;
  if (!date) throw badRequest(`${name}: 时间格式应为 yyyy-MM-dd HH:mm:ss`);
  return date;
}

/**
 * The leave request of contract §13.5: the row, then an instance of the leave process with the
 * business key `blade_process_leave:<id>`, both in one transaction.
 */
export async function leaveRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const tags = ["workflow"];

  app.post(
    `${BASE}/start-process`,
    { schema: { tags, summary: "Apply for leave and start its process" } },
    async (request) => {
      const caller = await requirePermission(db, request, []);
      const params = readParams(request);
      const startTime = leaveTime(params, "startTime", timeZone);
      const endTime = leaveTime(params, "endTime", timeZone);
      if (endTime <= startTime) throw badRequest("endTime: 结束时间应晚于开始时间");
      const reason = (optionalString(params, "reason") ?? "").trim();
      if (!reason) throw badRequest("reason: 请输入请假理由");
      if (reason.length > 500) throw badRequest("reason: 长度不能超过500");
      const type = optionalString(params, "type") ?? "1";
      if (!/^\d{1,2}$/.test(type)) throw badRequest("type: 请假类型无效");
      const days = Math.max(1, Math.ceil((endTime.getTime() - startTime.getTime()) / DAY_MS));
      if (days > MAX_DAYS) throw badRequest(`endTime: 请假不能超过 ${MAX_DAYS} 天`);
      const chosen = optionalId(params, "taskUser");
      const instanceId = await db.transaction(async (tx) => {
        if (chosen) {
          const [user] = await tx.query(
            "select 1 from sys_user where id = $1 and tenant_id = $2 and is_deleted = 0 and status = 1",
            [chosen, caller.tenantId],
          );
          if (!user) throw badRequest("taskUser: 审批人不存在");
        }
        const definitionId =
          optionalString(params, "processDefinitionId") ??
          (await latestDefinitionId(tx, caller.tenantId, "Leave"));
        if (!definitionId || definitionId.length > 200) throw badRequest("processDefinitionId: 流程不存在");
        const leaders = chosen ? [] : await departmentLeaders(tx, caller);
        if (!chosen && leaders.length === 0) throw badRequest("taskUser: 请选择审批人 (所在部门没有负责人)");
        const id = nextId();
        await tx.query(
          `insert into blade_process_leave (id, tenant_id, process_definition_id, leave_type, start_time, end_time, days,
           reason, task_user, create_user, update_user)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
          [
            id,
            caller.tenantId,
            definitionId,
            Number(type),
            startTime,
            endTime,
            days,
            reason,
            chosen ?? null,
            caller.userId,
          ],
        );
        const started = await startInstance(tx, caller, definitionId, `blade_process_leave:${id}`, {
          type: Number(type),
          days,
          reason,
          taskUser: chosen ? taskUser(chosen) : "",
          deptLeaders: leaders.join(","),
        });
        await tx.query("update blade_process_leave set process_instance_id = $2 where id = $1", [
          id,
          started,
        ]);
        return { leaveId: id, processInstanceId: started };
      });
      return ok(instanceId, "操作成功");
    },
  );

  app.get(
    `${BASE}/detail`,
    { schema: { tags, summary: "A leave request (businessId)" } },
    async (request) => {
      const caller = await requirePermission(db, request, []);
      const businessId = optionalId(readParams(request), "businessId");
      if (!businessId) throw badRequest("businessId: 请选择请假单");
      const [row] = await db.query<{
        id: string;
        process_definition_id: string;
        process_instance_id: string | null;
        leave_type: number;
        start_time: Date;
        end_time: Date;
        days: number;
        reason: string;
        task_user: string | null;
        apply_time: Date;
        create_user: string;
        creator_name: string | null;
      }>(
        `select l.*, u.real_name as creator_name from blade_process_leave l left join sys_user u on u.id = l.create_user
        where l.id = $1 and l.tenant_id = $2 and l.is_deleted = 0`,
        [businessId, caller.tenantId],
      );
      if (!row) throw notFound("businessId: 请假单不存在");
      // The applicant reads their own; anyone else only as a participant of its process.
      if (String(row.create_user) !== caller.userId) {
        if (!row.process_instance_id) throw forbidden("无权限查看该请假单");
        await requireInstanceReader(db, caller, row.process_instance_id);
      }
      return ok({
        id: row.id,
        processDefinitionId: row.process_definition_id,
        processInstanceId: row.process_instance_id ?? "",
        type: row.leave_type,
        startTime: flowTime(row.start_time, timeZone),
        endTime: flowTime(row.end_time, timeZone),
        days: row.days,
        reason: row.reason,
        taskUser: row.task_user ?? "",
        applyTime: flowTime(row.apply_time, timeZone),
        createUser: row.create_user,
        flow: { assigneeName: row.creator_name ?? "" },
      });
    },
  );
}
