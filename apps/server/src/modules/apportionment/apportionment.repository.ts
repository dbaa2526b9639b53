import type { Queryable } from "../../db/client.ts";

export interface ApportionNodeRow {
  id: string;
  node_title: string;
  energy_type: number;
  apportion_rule: number;
  apportion_loss: number;
}

/** A live node of the tenant with its apportionment settings. */
export async function nodeOf(db: Queryable, tenantId: string, nodeId: string) {
  const [row] = await db.query<ApportionNodeRow>(
    `select id::text as id, node_title, energy_type, apportion_rule, apportion_loss
       from pms_metering_node where id = $1 and tenant_id = $2 and is_deleted = 0`,
    [nodeId, tenantId],
  );
  return row;
}

export interface NodeMeterRow {
  meter_id: string;
  meter_role: number;
  product_code: string | null;
  room_id: string | null;
  room_name: string | null;
  floor_area: string | null;
  account_id: string | null;
  price_mode: number | null;
  price: string | null;
  ladder_cycle: number | null;
  ladder: string | null;
  tip_price: string | null;
  peak_price: string | null;
  peace_price: string | null;
  low_price: string | null;
}

/**
 * The meters listed under a node with, for the rooms' meters, the room they are installed in, its
 * floor area, and the meter's open account with its charging scheme.
 */
export async function nodeMetersOf(
  db: Queryable,
  tenantId: string,
  nodeId: string,
  energyType: number,
): Promise<NodeMeterRow[]> {
  const meters = energyType === 2 ? "pms_water" : "pms_meter";
  return db.query<NodeMeterRow>(
    `select l.meter_id::text as meter_id, l.meter_role, m.product_code,
            r.id::text as room_id, r.room_name, r.floor_area::text as floor_area,
            a.id::text as account_id, c.price_mode, c.price::text as price, c.ladder_cycle, c.ladder,
            c.tip_price::text as tip_price, c.peak_price::text as peak_price,
            c.peace_price::text as peace_price, c.low_price::text as low_price
       from pms_metering_node_meter l
       left join ${meters} m on m.id = l.meter_id and m.tenant_id = l.tenant_id
       left join pms_room_meter rm on rm.meter_id = l.meter_id and rm.energy_type = l.energy_type
                                  and rm.tenant_id = l.tenant_id and rm.is_deleted = 0
       left join pms_room r on r.id = rm.room_id and r.tenant_id = l.tenant_id and r.is_deleted = 0
       left join pms_account a on a.meter_id = l.meter_id and a.energy_type = l.energy_type
                              and a.tenant_id = l.tenant_id and a.status = 1
       left join pms_charging_scheme c on c.id = a.charging_scheme_id and c.is_deleted = 0
      where l.tenant_id = $1 and l.node_id = $2 and l.is_deleted = 0
      order by l.meter_role, r.room_name, l.id`,
    [tenantId, nodeId],
  );
}

export interface RunRow {
  id: string;
  node_id: string;
  node_title: string | null;
  energy_type: number;
  month: string;
  state: number;
  common_usage: string;
  loss_usage: string;
  shared_usage: string;
  total_amount: string;
  reject_reason: string | null;
  reverse_reason: string | null;
  reversed_by: string | null;
  reversed_time: Date | null;
  creator: string;
  create_time: Date;
}

const RUN_COLUMNS = `r.id::text as id, r.node_id::text as node_id, n.node_title, r.energy_type, r.month, r.state,
  r.common_usage::text as common_usage, r.loss_usage::text as loss_usage, r.shared_usage::text as shared_usage,
  r.total_amount::text as total_amount, r.reject_reason, r.reverse_reason, r.reversed_by, r.reversed_time,
  r.creator, r.create_time`;

export interface NewRun {
  id: string;
  tenantId: string;
  nodeId: string;
  energyType: number;
  month: string;
  commonUsage: bigint;
  lossUsage: bigint;
  sharedUsage: bigint;
  totalAmount: bigint;
  userId: string;
  creator: string;
}

/** Inserts the run unless the node's month already has a live one; answers whether it was inserted. */
export async function insertRun(tx: Queryable, run: NewRun): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `insert into pms_apportionment_run (id, tenant_id, node_id, energy_type, month, state, common_usage, loss_usage,
                                        shared_usage, total_amount, create_user, creator)
     values ($1, $2, $3, $4, $5, 2, $6, $7, $8, $9, $10, $11)
     on conflict (tenant_id, node_id, month) where state in (1, 2) do nothing
     returning id::text as id`,
    [
      run.id,
      run.tenantId,
      run.nodeId,
      run.energyType,
      run.month,
      run.commonUsage.toString(),
      run.lossUsage.toString(),
      run.sharedUsage.toString(),
      run.totalAmount.toString(),
      run.userId || null,
      run.creator.slice(0, 64),
    ],
  );
  return rows.length === 1;
}

/** The live (waiting or booked) run of a node's month. */
export async function liveRunOf(db: Queryable, tenantId: string, nodeId: string, month: string) {
  const [row] = await db.query<RunRow>(
    `select ${RUN_COLUMNS} from pms_apportionment_run r
       left join pms_metering_node n on n.id = r.node_id and n.tenant_id = r.tenant_id
      where r.tenant_id = $1 and r.node_id = $2 and r.month = $3 and r.state in (1, 2)`,
    [tenantId, nodeId, month],
  );
  return row;
}

/** One run of the tenant, locked when `forUpdate`. */
export async function runOf(db: Queryable, tenantId: string, runId: string, forUpdate = false) {
  const [row] = await db.query<RunRow>(
    `select ${RUN_COLUMNS} from pms_apportionment_run r
       left join pms_metering_node n on n.id = r.node_id and n.tenant_id = r.tenant_id
      where r.id = $1 and r.tenant_id = $2${forUpdate ? " for update of r" : ""}`,
    [runId, tenantId],
  );
  return row;
}

/** The tenant's latest runs, of one node when asked, newest first. */
export async function runsOf(db: Queryable, tenantId: string, nodeId: string | undefined, limit: number) {
  return db.query<RunRow>(
    `select ${RUN_COLUMNS} from pms_apportionment_run r
       left join pms_metering_node n on n.id = r.node_id and n.tenant_id = r.tenant_id
      where r.tenant_id = $1 and ($2::bigint is null or r.node_id = $2)
      order by r.create_time desc, r.id desc limit $3`,
    [tenantId, nodeId ?? null, limit],
  );
}

export interface NewLine {
  id: string;
  roomId: string;
  meterId: string;
  accountId: string;
  floorArea: bigint | null;
  roomUsage: bigint;
  shareUsage: bigint;
  amount: bigint;
}

export async function insertLines(tx: Queryable, tenantId: string, runId: string, lines: readonly NewLine[]) {
  if (lines.length === 0) return;
  await tx.query(
    `insert into pms_apportionment_line (id, tenant_id, run_id, room_id, meter_id, account_id, floor_area,
                                         room_usage, share_usage, amount)
     select l.id, $1, $2, l.room_id, l.meter_id, l.account_id, l.floor_area, l.room_usage, l.share_usage, l.amount
       from unnest($3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[],
                   $10::bigint[])
         as l(id, room_id, meter_id, account_id, floor_area, room_usage, share_usage, amount)`,
    [
      tenantId,
      runId,
      lines.map((l) => l.id),
      lines.map((l) => l.roomId),
      lines.map((l) => l.meterId),
      lines.map((l) => l.accountId),
      lines.map((l) => l.floorArea?.toString() ?? null),
      lines.map((l) => l.roomUsage.toString()),
      lines.map((l) => l.shareUsage.toString()),
      lines.map((l) => l.amount.toString()),
    ],
  );
}

export interface LineRow {
  id: string;
  account_id: string;
  amount: string;
  share_usage: string;
  ledger_id: string | null;
}

export async function linesOf(db: Queryable, tenantId: string, runId: string): Promise<LineRow[]> {
  return db.query<LineRow>(
    `select id::text as id, account_id::text as account_id, amount::text as amount,
            share_usage::text as share_usage, ledger_id::text as ledger_id
       from pms_apportionment_line where tenant_id = $1 and run_id = $2 order by id`,
    [tenantId, runId],
  );
}

export async function markLineBooked(
  tx: Queryable,
  lineId: string,
  column: "ledger_id" | "reverse_ledger_id",
  ledgerId: string,
) {
  await tx.query(`update pms_apportionment_line set ${column} = $2 where id = $1`, [lineId, ledgerId]);
}

export async function setRunState(
  tx: Queryable,
  tenantId: string,
  runId: string,
  change: {
    state: number;
    instanceId?: string;
    rejectReason?: string;
    reverse?: { reason: string; by: string };
  },
) {
  await tx.query(
    `update pms_apportionment_run
        set state = $3, approval_instance_id = coalesce($4, approval_instance_id),
            reject_reason = coalesce($5, reject_reason), reverse_reason = coalesce($6, reverse_reason),
            reversed_by = coalesce($7, reversed_by),
            reversed_time = case when $6::text is null then reversed_time else now() end
      where id = $1 and tenant_id = $2`,
    [
      runId,
      tenantId,
      change.state,
      change.instanceId ?? null,
      change.rejectReason?.slice(0, 255) ?? null,
      change.reverse?.reason.slice(0, 255) ?? null,
      change.reverse?.by.slice(0, 64) ?? null,
    ],
  );
}

/** The tenant's live nodes that list a common-area meter: the ones a month can be apportioned for. */
export async function apportionableNodesOf(db: Queryable, tenantId: string) {
  return db.query<{
    id: string;
    node_title: string;
    energy_type: number;
    apportion_rule: number;
    apportion_loss: number;
  }>(
    `select n.id::text as id, n.node_title, n.energy_type, n.apportion_rule, n.apportion_loss
       from pms_metering_node n
      where n.tenant_id = $1 and n.is_deleted = 0
        and exists (select 1 from pms_metering_node_meter l
                     where l.tenant_id = n.tenant_id and l.node_id = n.id and l.meter_role = 2 and l.is_deleted = 0)
      order by n.energy_type, n.sort, n.id`,
    [tenantId],
  );
}
