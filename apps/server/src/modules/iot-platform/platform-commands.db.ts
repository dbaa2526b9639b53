import type { Queryable } from "../../db/client.ts";

/**
 * A meter's commands through its platform, newest first: the queue's state, the platform's state,
 * and when the meter is next expected to wake (its last report plus its reporting interval) while
 * a command waits for it.
 */
export async function meterCommands(db: Queryable, tenantId: string, meterId: string) {
  const rows = await db.query<{
    id: string;
    command_type: string;
    payload: string;
    state: string;
    platform: string | null;
    platform_state: string | null;
    create_time: Date;
    sent_time: Date | null;
    done_time: Date | null;
    expires_at: Date | null;
    expected_wake: Date | null;
  }>(
    `select c.id::text as id, c.command_type, c.payload, c.state, c.platform, c.platform_state, c.create_time,
            c.sent_time, c.done_time, c.expires_at, ${expectedWakeSql("c")} as expected_wake
       from pms_meter_command c
      where c.tenant_id = $1 and c.meter_id = $2 and c.is_deleted = 0
      order by c.create_time desc, c.id desc limit 100`,
    [tenantId, meterId],
  );
  return rows.map((row) => ({
    id: row.id,
    commandType: row.command_type,
    payload: row.payload,
    state: row.state,
    platform: row.platform,
    platformState: row.platform_state,
    createTime: row.create_time,
    sentTime: row.sent_time,
    doneTime: row.done_time,
    expiresAt: row.expires_at,
    expectedWake: row.expected_wake,
  }));
}

/**
 * SQL of when the meter of command `c` is next expected to wake, while the command waits at its
 * platform: its last report plus the gap between its last two (a day until it has reported twice).
 * Null for a meter not on a platform, or a settled command.
 */
export const expectedWakeSql = (c: string) =>
  `(select d.last_report_time + make_interval(secs => coalesce(d.report_interval_seconds, 86400))
      from pms_iot_device d
     where ${c}.platform is not null and ${c}.state in ('queued', 'sent')
       and d.tenant_id = ${c}.tenant_id and d.energy_type = ${c}.energy_type and d.meter_id = ${c}.meter_id)`;
