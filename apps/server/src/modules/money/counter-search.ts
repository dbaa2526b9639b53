import {
  type CounterHit,
  type CounterMatch,
  type CounterMeter,
  type ResourceDef,
  resources,
} from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalString, paging } from "../../contract/params.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { visibleRows } from "../../crud/scope.ts";
import type { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { areasNaming } from "../pms/building-areas.ts";
import { readKeyword } from "../pms/keyword-readings.ts";
import { CounterHitsQuery, type HitRow } from "./counter-hits.sql.ts";
import { ownersWithAccounts, smallInt, tenantOfRow, yuan } from "./money-reads.ts";

/** The most hits on one page of the counter: a desk reads a screenful, not a register. */
const MAX_PAGE_SIZE = 50;

const MATCHES: CounterMatch[] = ["room", "owner", "meter", "partial", "all"];

/**
 * The recharge counter's search (packages/contracts/src/counter.ts): the keyword read every way
 * it may be meant (keyword-readings.ts), each reading a bound condition, the hits ranked room,
 * owner, meter, then looser room matches, one page of them with their meters and owners.
 * Tenant, soft delete and the caller's data scope apply to every table read, as in the registry.
 */
export async function counterSearch(
  db: Queryable,
  request: FastifyRequest,
  tenantId: string | null,
  params: Record<string, unknown>,
) {
  const { current, size, offset } = paging(params, MAX_PAGE_SIZE);
  const readings = readKeyword(optionalString(params, "keyword") ?? "");
  if (!readings) throw badParam("keyword");
  const alarmLevel = smallInt(params, "alarmLevel", 3);
  const visible = visibility(db, request, tenantId);
  const buildingAreas = await areasNaming(
    db,
    [...readings.places.map((p) => p.building), ...readings.buildings],
    (sql) => visible.rows(resources.area, sql, "a"),
  );
  const query = new CounterHitsQuery(visible, readings, buildingAreas, alarmLevel, tenantId);
  const { sql, text } = await query.page(size, offset);
  const rows = await db.query<HitRow>(text, sql.values);
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && offset > 0) {
    const count = await query.count();
    total = Number((await db.query<{ n: string }>(count.text, count.sql.values))[0]?.n ?? 0);
  }
  const owners = await ownersWithAccounts(db, [
    ...new Set(rows.flatMap((r) => (r.owner_id ? [r.owner_id] : []))),
  ]);
  const records: CounterHit[] = rows.map((r) => ({
    key: r.room_id ?? `owner-${r.owner_id}`,
    ...tenantOfRow(r),
    matched: MATCHES[r.rank] ?? "all",
    room: r.room_id
      ? { id: r.room_id, roomName: r.room_name ?? "", roomCode: r.room_code ?? "", label: r.label ?? "" }
      : null,
    owner: (r.owner_id && owners.get(r.owner_id)) || null,
    meters: r.meters.map(
      (m): CounterMeter => ({
        energyType: m.energy_type === 2 ? 2 : 1,
        meterId: m.meter_id,
        productCode: m.product_code,
        switchStatus: m.switch_status === 1 ? 1 : 0,
        account: m.account_id
          ? {
              id: m.account_id,
              balance: yuan(m.balance) ?? "0.00",
              alarmLevel: m.alarm_level ?? 0,
              controlStatus: m.control_status ?? 1,
            }
          : null,
      }),
    ),
  }));
  return page(records, total, current, size);
}

/**
 * The predicates of the rows a caller reads. `rows`: the rows a search starts from, live rows of the
 * tenant (every tenant's for the platform administrator naming none) in the caller's data scope.
 * `reached`: rows looked up by id from such a row (a room's owner, a room's meters), live and in the
 * data scope; their tenant is the row's they were reached from, since links are only ever written
 * within one tenant.
 *
 * Why `is_deleted <> 1` there, the same as `= 0` for a column that holds 0 or 1: the embedded
 * database is never analysed, and without statistics the planner takes `is_deleted = 0` to keep one
 * row in two hundred. It then reads each partial index `where is_deleted = 0` as a table of one row
 * and scans it whole for every link instead of looking the row up by its id (measured on the demo
 * site: 50 ms per hit for its meters). `<> 1` it takes to keep nearly every row, which is the truth,
 * and no partial index matches it, so the id's own index is used.
 */
export interface Visibility {
  rows(def: ResourceDef, sql: SqlParams, alias: string): Promise<string>;
  reached(def: ResourceDef, sql: SqlParams, alias: string): Promise<string>;
}

function visibility(db: Queryable, request: FastifyRequest, tenantId: string | null): Visibility {
  const predicates = async (def: ResourceDef, sql: SqlParams, alias: string, withTenant: boolean) => {
    const conditions = withTenant
      ? visibleRows(def, request.user!, sql, { alias, tenantId: tenantId ?? undefined })
      : def.softDelete
        ? [`${alias}.is_deleted <> 1`]
        : [];
    if (def.dataScope) {
      const rules = await scopeRules(db, request, def.name);
      const scope = scopePredicate(def, request, rules, sql, alias);
      if (scope) conditions.push(scope);
    }
    return conditions.length > 0 ? conditions.join(" and ") : "true";
  };
  return {
    rows: (def, sql, alias) => predicates(def, sql, alias, true),
    reached: (def, sql, alias) => predicates(def, sql, alias, false),
  };
}
