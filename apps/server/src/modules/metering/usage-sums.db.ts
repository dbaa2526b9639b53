import type { RankedMeter, UsageSum } from "@meterline/contracts";
import { escapeLike } from "../../crud/filters.ts";
import type { Queryable } from "../../db/client.ts";
import { areaSubtree } from "../pms/registry.hooks.ts";

export type DailyTable = "pms_data_daily" | "pms_water_data_daily";

export interface UsageScope {
  /** null: every tenant (the platform administrator's home). */
  tenantId: string | null;
  meterId?: string;
  areaId?: string;
  /** The daily table's own search, which its chart follows: one room, meter numbers containing a text. */
  roomId?: string;
  productCode?: string;
}

const scoped = `($1::text is null or d.tenant_id = $1::text)
  and ($4::bigint is null or d.meter_id = $4::bigint)
  and ($5::bigint is null or d.room_id in (select r.id from pms_room r where r.area_id in (${areaSubtree("$5")})))
  and ($6::bigint is null or d.room_id = $6::bigint)
  and ($7::text is null or d.product_code ilike $7::text)`;

const scopeParams = (scope: UsageScope, from: string, to: string) => [
  scope.tenantId,
  from,
  to,
  scope.meterId ?? null,
  scope.areaId ?? null,
  scope.roomId ?? null,
  // Contains, as the table's own search on the meter number.
  scope.productCode ? `%${escapeLike(scope.productCode)}%` : null,
];

/** Usage per day from `from` to `to` (yyyy-MM-dd), days without rows left out. */
export const usagePerDay = (db: Queryable, table: DailyTable, scope: UsageScope, from: string, to: string) =>
  db.query<UsageSum>(
    `select to_char(d.day_date, 'YYYY-MM-DD') as day, sum(d.usage)::numeric(16, 2)::text as usage,
            count(distinct d.meter_id)::int as meters
       from ${table} d
      where ${scoped} and d.day_date between $2::date and $3::date
      group by d.day_date`,
    scopeParams(scope, from, to),
  );

/** Usage per calendar month (`day` is the month's first day), from `from` to `to`. */
export const usagePerMonth = (
  db: Queryable,
  table: DailyTable,
  scope: UsageScope,
  from: string,
  to: string,
) =>
  db.query<UsageSum>(
    `select to_char(date_trunc('month', d.day_date), 'YYYY-MM-DD') as day,
            sum(d.usage)::numeric(16, 2)::text as usage, count(distinct d.meter_id)::int as meters
       from ${table} d
      where ${scoped} and d.day_date between $2::date and $3::date
      group by date_trunc('month', d.day_date)`,
    scopeParams(scope, from, to),
  );

/**
 * The meters that used most on a day, most first; of every tenant when `tenantId` is null, each row
 * then naming its tenant (a fixed fragment chosen here, the tenant itself always a parameter).
 */
export const usageRank = (
  db: Queryable,
  table: DailyTable,
  tenantId: string | null,
  day: string,
  limit: number,
) =>
  db.query<RankedMeter>(
    `select d.meter_id::text as "meterId", d.product_code as "productCode", r.room_name as "roomName",
            a.area_name as "areaName", d.usage::numeric(16, 2)::text as usage
            ${tenantId === null ? `, coalesce(tn.tenant_name, d.tenant_id) as "tenantName"` : ""}
       from ${table} d
       left join pms_room r on r.tenant_id = d.tenant_id and r.id = d.room_id
       left join pms_area a on a.tenant_id = d.tenant_id and a.id = r.area_id
       ${tenantId === null ? "left join sys_tenant tn on tn.tenant_id = d.tenant_id and tn.is_deleted = 0" : ""}
      where ($1::text is null or d.tenant_id = $1::text) and d.day_date = $2::date and d.usage is not null
      order by d.usage desc, d.product_code
      limit $3`,
    [tenantId, day, limit],
  );
