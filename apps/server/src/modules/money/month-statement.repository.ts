import type { Queryable } from "../../db/client.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { meterCodeJoin } from "./account.repository.ts";

/** What a monthly statement covers: one account, an owner's, a room's, a building's, or the whole site's. */
export type ScopeKind = "account" | "owner" | "room" | "building" | "site";

export interface MonthBounds {
  tenantId: string;
  /** The month's first instant and the next month's, in the tenant's zone. */
  start: Date;
  end: Date;
}

/**
 * The accounts of a scope (alias `a`), bound as `$4` where the scope names one: a building takes
 * the rooms of its area and every area below it.
 */
function scopePredicate(kind: ScopeKind): string {
  switch (kind) {
    case "account":
      return "and a.id = $4::bigint";
    case "owner":
      return "and a.owner_id = $4::bigint";
    case "room":
      return "and a.room_id = $4::bigint";
    case "building":
      return `and a.room_id in (
                select r.id from pms_room r join pms_area ar on ar.id = r.area_id and ar.tenant_id = r.tenant_id
                 where r.tenant_id = $1
                   and (ar.id = $4::bigint or $4::text = any(string_to_array(ar.ancestors, ','))))`;
    case "site":
      return "and $4::text is null";
  }
}

/** One account's month, every amount in fen and usage in 0.01 units, as text. */
export interface AccountMonthRow {
  id: string;
  energy_type: number;
  owner_name: string | null;
  room_name: string | null;
  product_code: string | null;
  opening: string;
  closing: string;
  deposit: string;
  recharge: string;
  refund: string;
  correction: string;
  usage_correction: string;
  /** Shared cost (公摊) charged, net of its reversals, in fen. */
  apportion: string;
  usage: string;
  usage_charge: string;
  fee: string;
}

/**
 * A batch of the scope's accounts open at some time in the month, in id order after `after`: each
 * with its balance before the month and at its end (the last ledger entry before each bound), and
 * the month's ledger summed by cause. Each account's sums are a range of its own ledger index, so a
 * site-wide statement costs the same per batch however large the site or its ledger.
 */
export function accountMonths(
  db: Queryable,
  month: MonthBounds,
  kind: ScopeKind,
  scopeId: string | null,
  after: string,
  limit: number,
  offset = 0,
): Promise<AccountMonthRow[]> {
  return db.query<AccountMonthRow>(
    `with acc as (
       select a.id, a.tenant_id, a.owner_id, a.room_id, a.energy_type, a.meter_id from pms_account a
        where a.tenant_id = $1 and a.opened_time < $3 and (a.closed_time is null or a.closed_time >= $2)
          ${scopePredicate(kind)} and a.id > $5::bigint
        order by a.id limit $6 offset $7
     )
     select a.id::text as id, a.energy_type, o.owner_name, ${roomLabelSql("r")} as room_name, m.product_code,
            coalesce((select l.balance_after from pms_ledger l where l.account_id = a.id and l.create_time < $2
                       order by l.create_time desc, l.id desc limit 1), 0)::text as opening,
            coalesce((select l.balance_after from pms_ledger l where l.account_id = a.id and l.create_time < $3
                       order by l.create_time desc, l.id desc limit 1), 0)::text as closing,
            s.deposit::text, s.recharge::text, s.refund::text, s.correction::text, s.usage_correction::text, s.apportion::text,
            s.usage::text, s.usage_charge::text, s.fee::text
       from acc a
       cross join lateral (
         select coalesce(sum(l.amount) filter (where l.entry_type = 1), 0) as deposit,
                coalesce(sum(l.amount) filter (where l.entry_type = 2), 0) as recharge,
                coalesce(-sum(l.amount) filter (where l.entry_type in (3, 8)), 0) as refund,
                coalesce(sum(l.amount) filter (where l.entry_type in (4, 5)), 0) as correction,
                coalesce(sum(l.amount) filter (where l.entry_type = 9), 0) as usage_correction,
                coalesce(-sum(l.amount) filter (where l.entry_type = 10), 0) as apportion,
                coalesce(sum(l.usage) filter (where l.entry_type = 6), 0) as usage,
                coalesce(-sum(l.amount) filter (where l.entry_type = 6), 0) as usage_charge,
                coalesce(-sum(l.amount) filter (where l.entry_type = 7), 0) as fee
           from pms_ledger l where l.account_id = a.id and l.create_time >= $2 and l.create_time < $3
       ) s
       left join pms_owner o on o.id = a.owner_id and o.tenant_id = a.tenant_id
       left join pms_room r on r.id = a.room_id and r.tenant_id = a.tenant_id
       ${meterCodeJoin("a", "m")}
      order by a.id`,
    [month.tenantId, month.start, month.end, scopeId, after, limit, offset],
  );
}

/** How many accounts the scope has in the month (the statement's page count). */
export async function countAccountMonths(
  db: Queryable,
  month: MonthBounds,
  kind: ScopeKind,
  scopeId: string | null,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from pms_account a
      where a.tenant_id = $1 and a.opened_time < $3 and (a.closed_time is null or a.closed_time >= $2)
        ${scopePredicate(kind)}`,
    [month.tenantId, month.start, month.end, scopeId],
  );
  return row?.n ?? 0;
}

export interface PartRow {
  energy_type: number;
  part: string;
  usage: string;
  charge: string;
}

/**
 * The month's usage charges of some accounts split by tier or band, per energy type: the parts'
 * rows of charges in several parts (pms_ledger_part) and the one part of each charge priced whole
 * in it, which its entry keeps (pms_ledger.part).
 */
export function monthParts(
  db: Queryable,
  month: MonthBounds,
  accountIds: readonly string[],
): Promise<PartRow[]> {
  return db.query<PartRow>(
    `select x.energy_type, x.part, sum(x.usage)::text as usage, sum(x.charge)::text as charge
       from (select a.energy_type, p.part, p.usage, p.charge
               from pms_account a
               join pms_ledger_part p on p.account_id = a.id and p.create_time >= $2 and p.create_time < $3
              where a.tenant_id = $1 and a.id = any($4::bigint[])
             union all
             select a.energy_type, l.part, l.usage, -l.amount
               from pms_account a
               join pms_ledger l on l.tenant_id = a.tenant_id and l.account_id = a.id
                                and l.create_time >= $2 and l.create_time < $3 and l.part is not null
              where a.tenant_id = $1 and a.id = any($4::bigint[])) x
      group by x.energy_type, x.part`,
    [month.tenantId, month.start, month.end, accountIds],
  );
}

/** The name of what a scope names in the tenant (undefined when it is not the tenant's). */
export async function scopeName(
  db: Queryable,
  tenantId: string,
  kind: Exclude<ScopeKind, "site">,
  id: string,
): Promise<string | undefined> {
  const sql = {
    account: `select concat_ws(' ', o.owner_name, m.product_code) as name from pms_account a
                left join pms_owner o on o.id = a.owner_id ${meterCodeJoin("a", "m")}
               where a.tenant_id = $1 and a.id = $2`,
    owner: "select owner_name as name from pms_owner where tenant_id = $1 and id = $2",
    room: `select ${roomLabelSql("r")} as name from pms_room r where r.tenant_id = $1 and r.id = $2`,
    building: "select area_name as name from pms_area where tenant_id = $1 and id = $2",
  }[kind];
  const [row] = await db.query<{ name: string }>(sql, [tenantId, id]);
  return row?.name;
}

/** The tenant's own name, for a site-wide statement's title. */
export async function tenantName(db: Queryable, tenantId: string): Promise<string> {
  const [row] = await db.query<{ name: string }>(
    "select tenant_name as name from sys_tenant where tenant_id = $1",
    [tenantId],
  );
  return row?.name ?? tenantId;
}

/** The month's bounds in the tenant's zone: its first instant and the next month's. */
export async function monthBounds(db: Queryable, tenantId: string, month: string, timeZone: string) {
  const [row] = await db.query<{ start: Date; end: Date }>(
    `select ($1::date::timestamp at time zone $2) as start,
            (($1::date + interval '1 month')::timestamp at time zone $2) as end`,
    [`${month}-01`, timeZone],
  );
  return { tenantId, start: row!.start, end: row!.end };
}
