import type {
  BatchItemFilter,
  BatchItemState,
  BatchJobItem,
  BatchJobKind,
  BatchJobState,
  BatchJobSummary,
} from "@meterline/contracts";
import { formatDateTime } from "../../../contract/dates.ts";
import { SqlParams } from "../../../crud/sql.ts";
import type { Queryable } from "../../../db/client.ts";
import { nextId } from "../../../db/ids.ts";
import type { QueuedCommand } from "../../pms/command-queue.ts";
import { roomLabelSql } from "../../pms/room-label.ts";
import { spreadOverBuses } from "./bus-order.ts";
import type { ItemScope } from "./item-scope.ts";

/** One meter of a new job and the commands it will get, in the order they are sent. */
export interface PlannedItem {
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  commands: Pick<QueuedCommand, "commandType" | "payload">[];
}

export interface NewJob {
  tenantId: string;
  kind: BatchJobKind;
  params: Record<string, unknown>;
  source: string;
  createUser: string | null;
  retryOf?: string;
  skipped: { meterId: string; productCode: string; reason: string }[];
}

const ITEM_CHUNK = 1000;

/** The collector (the bus the gateway serves one frame at a time) of each planned meter. */
async function busesOf(db: Queryable, tenantId: string, items: readonly PlannedItem[]) {
  const ids = (energyType: 1 | 2) => items.filter((i) => i.energyType === energyType).map((i) => i.meterId);
  const rows = await db.query<{ energy_type: number; id: string; collector_id: string | null }>(
    `select 1 as energy_type, id::text as id, collector_id::text as collector_id from pms_meter
      where tenant_id = $1 and id = any($2::bigint[])
     union all
     select 2, id::text, collector_id::text from pms_water where tenant_id = $1 and id = any($3::bigint[])`,
    [tenantId, ids(1), ids(2)],
  );
  return new Map(rows.map((row) => [`${row.energy_type}:${row.id}`, row.collector_id]));
}

/**
 * Stores a job and its items (pending, plus the skipped meters for the record). Nothing is queued
 * here. The items are numbered one bus after another (spreadOverBuses), so that the runner's
 * window, taken in that order, keeps every bus of the job busy.
 */
export async function insertJob(
  db: Queryable,
  job: NewJob,
  planned: readonly PlannedItem[],
): Promise<string> {
  const id = nextId();
  const buses = await busesOf(db, job.tenantId, planned);
  const items = spreadOverBuses(planned, (item) => buses.get(`${item.energyType}:${item.meterId}`) ?? null);
  await db.query(
    `insert into pms_batch_job (id, tenant_id, kind, state, action, params, source, retry_of, skipped, create_user, finish_time)
     values ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      job.tenantId,
      job.kind,
      items.length === 0 ? "done" : "running",
      JSON.stringify(job.params),
      job.source,
      job.retryOf ?? null,
      JSON.stringify(job.skipped),
      job.createUser,
      items.length === 0 ? new Date() : null,
    ],
  );
  const energyOfSkipped =
    job.kind === "valve" || job.kind.startsWith("water") || job.kind === "valveStatus" ? 2 : 1;
  const rows = [
    ...items.map((item) => ({ ...item, state: "pending", reason: "" })),
    ...job.skipped
      .filter((skip) => /^\d+$/.test(skip.meterId))
      .map((skip) => ({
        energyType: energyOfSkipped as 1 | 2,
        meterId: skip.meterId,
        productCode: skip.productCode,
        commands: [],
        state: "skipped",
        reason: skip.reason,
      })),
  ];
  for (let start = 0; start < rows.length; start += ITEM_CHUNK) {
    const chunk = rows.slice(start, start + ITEM_CHUNK);
    await db.query(
      `insert into pms_batch_job_item (job_id, seq, tenant_id, energy_type, meter_id, product_code, state, reason, commands)
       select $1, start + n, $2, e, m, p, s, r, c
         from unnest($3::int[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[])
              with ordinality as u(e, m, p, s, r, c, n), (select $9::int as start) z`,
      [
        id,
        job.tenantId,
        chunk.map((row) => row.energyType),
        chunk.map((row) => row.meterId),
        chunk.map((row) => row.productCode),
        chunk.map((row) => row.state),
        chunk.map((row) => row.reason),
        chunk.map((row) => JSON.stringify(row.commands)),
        start,
      ],
    );
  }
  return id;
}

interface JobRow {
  id: string;
  tenant_id: string;
  kind: BatchJobKind;
  state: BatchJobState;
  action: string;
  params: string;
  source: string;
  retry_of: string | null;
  create_user: string | null;
  create_user_name: string | null;
  create_time: Date;
  finish_time: Date | null;
  counts: Partial<Record<BatchItemState, number>> | null;
  waiting_offline: number;
}

/**
 * The offline collector a remaining item (alias `item`) waits for, as JSON, else null: an item of
 * a meter behind an offline collector is waiting for it to come back, which the operator must see.
 */
function offlineCollectorSql(item: string): string {
  return `(select json_build_object('collectorName', c.collector_name, 'collectorCode', c.collector_code)::text
     from pms_collector c
    where c.online_status = 0 and c.is_deleted = 0 and ${item}.state in ('pending', 'queued', 'sent')
      and c.id = case when ${item}.energy_type = 1
                      then (select m.collector_id from pms_meter m where m.id = ${item}.meter_id)
                      else (select w.collector_id from pms_water w where w.id = ${item}.meter_id) end)`;
}

/** The job's columns and its item counts (only the items `inScope`, a predicate on alias i). */
function jobColumns(inScope: string): string {
  return `j.id::text as id, j.tenant_id, j.kind, j.state, j.action, j.params, j.source,
  j.retry_of::text as retry_of, j.create_user::text as create_user,
  coalesce(nullif(u.real_name, ''), u.name) as create_user_name, j.create_time, j.finish_time,
  (select json_object_agg(s.state, s.n) from (select i.state, count(*)::int as n from pms_batch_job_item i
    where i.job_id = j.id and ${inScope} group by i.state) s) as counts,
  (select count(*)::int from pms_batch_job_item i
    where i.job_id = j.id and ${inScope} and ${offlineCollectorSql("i")} is not null) as waiting_offline`;
}

/** With a data scope, a job's items outside it are neither counted nor listed. */
function itemsSeen(sql: SqlParams, scope: ItemScope | undefined, item: string): string {
  return scope ? scope(sql, item) : "true";
}

/** With a data scope, a job without any item inside it reads as absent. */
function jobSeen(sql: SqlParams, scope: ItemScope | undefined): string {
  return scope
    ? `exists (select 1 from pms_batch_job_item si where si.job_id = j.id and ${scope(sql, "si")})`
    : "true";
}

function summaryOf(row: JobRow): BatchJobSummary {
  const n = (state: BatchItemState) => Number(row.counts?.[state] ?? 0);
  const skipped = n("skipped");
  const all = Object.values(row.counts ?? {}).reduce((sum, count) => sum + Number(count), 0);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    kind: row.kind,
    state: row.state,
    action: row.action,
    params: JSON.parse(row.params) as Record<string, unknown>,
    total: all - skipped,
    success: n("success"),
    fail: n("fail"),
    timeout: n("timeout"),
    remaining: n("pending") + n("queued") + n("sent"),
    waitingOffline: Number(row.waiting_offline ?? 0),
    cancelled: n("cancelled"),
    skipped,
    retryOf: row.retry_of,
    createUser: row.create_user ?? "",
    createUserName: row.create_user_name ?? "",
    createTime: formatDateTime(new Date(row.create_time)),
    finishTime: row.finish_time ? formatDateTime(new Date(row.finish_time)) : null,
    source: row.source,
  };
}

/** A job of the tenant (any tenant when null, for the platform administrator), or undefined. */
export async function findJob(
  db: Queryable,
  tenantId: string | null,
  id: string,
  scope?: ItemScope,
): Promise<BatchJobSummary | undefined> {
  const sql = new SqlParams();
  const tenant = sql.bind(tenantId);
  const [row] = await db.query<JobRow>(
    `select ${jobColumns(itemsSeen(sql, scope, "i"))} from pms_batch_job j left join sys_user u on u.id = j.create_user
      where j.id = ${sql.bind(id)} and (${tenant}::text is null or j.tenant_id = ${tenant}) and ${jobSeen(sql, scope)}`,
    sql.values,
  );
  return row ? summaryOf(row) : undefined;
}

export async function pageJobs(
  db: Queryable,
  tenantId: string | null,
  filter: { kind?: BatchJobKind; state?: BatchJobState },
  paging: { offset: number; size: number },
  scope?: ItemScope,
): Promise<{ records: BatchJobSummary[]; total: number }> {
  const whereOf = (sql: SqlParams) => {
    const tenant = sql.bind(tenantId);
    const kind = sql.bind(filter.kind ?? null);
    const state = sql.bind(filter.state ?? null);
    return `(${tenant}::text is null or j.tenant_id = ${tenant}) and (${kind}::text is null or j.kind = ${kind})
            and (${state}::text is null or j.state = ${state}) and ${jobSeen(sql, scope)}`;
  };
  const counting = new SqlParams();
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from pms_batch_job j where ${whereOf(counting)}`,
    counting.values,
  );
  const sql = new SqlParams();
  const rows = await db.query<JobRow>(
    `select ${jobColumns(itemsSeen(sql, scope, "i"))} from pms_batch_job j left join sys_user u on u.id = j.create_user
      where ${whereOf(sql)} order by j.create_time desc, j.id desc
      limit ${sql.bind(paging.size)} offset ${sql.bind(paging.offset)}`,
    sql.values,
  );
  return { records: rows.map(summaryOf), total: count?.n ?? 0 };
}

const FILTER_STATES: Record<BatchItemFilter, BatchItemState[]> = {
  success: ["success"],
  fail: ["fail"],
  timeout: ["timeout"],
  remaining: ["pending", "queued", "sent"],
  cancelled: ["cancelled"],
  skipped: ["skipped"],
};

interface ItemRow {
  meter_id: string;
  product_code: string;
  energy_type: 1 | 2;
  room_name: string | null;
  state: BatchItemState;
  reason: string;
  waiting_for: string | null;
  command_id: string | null;
  update_time: Date;
}

export async function pageItems(
  db: Queryable,
  jobId: string,
  filter: BatchItemFilter | undefined,
  paging: { offset: number; size: number },
  scope?: ItemScope,
): Promise<{ records: BatchJobItem[]; total: number }> {
  const whereOf = (sql: SqlParams) => {
    const states = sql.bind(filter ? FILTER_STATES[filter] : null);
    return `i.job_id = ${sql.bind(jobId)} and (${states}::text[] is null or i.state = any(${states}::text[]))
            and ${itemsSeen(sql, scope, "i")}`;
  };
  const counting = new SqlParams();
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from pms_batch_job_item i where ${whereOf(counting)}`,
    counting.values,
  );
  const sql = new SqlParams();
  const rows = await db.query<ItemRow>(
    `select i.meter_id::text as meter_id, i.product_code, i.energy_type, i.state, i.reason,
            ${offlineCollectorSql("i")} as waiting_for, i.command_id::text as command_id, i.update_time,
            (select ${roomLabelSql("r")} from pms_room_meter rm join pms_room r on r.id = rm.room_id
              where rm.meter_id = i.meter_id and rm.energy_type = i.energy_type and rm.is_deleted = 0
              order by rm.id desc limit 1) as room_name
       from pms_batch_job_item i
      where ${whereOf(sql)}
      order by i.seq limit ${sql.bind(paging.size)} offset ${sql.bind(paging.offset)}`,
    sql.values,
  );
  return {
    total: count?.n ?? 0,
    records: rows.map((row) => ({
      meterId: row.meter_id,
      productCode: row.product_code,
      energyType: row.energy_type,
      roomName: row.room_name ?? "",
      state: row.state,
      reason: row.reason,
      waitingFor: row.waiting_for ? (JSON.parse(row.waiting_for) as BatchJobItem["waitingFor"]) : null,
      commandId: row.command_id,
      updateTime: formatDateTime(new Date(row.update_time)),
    })),
  };
}
