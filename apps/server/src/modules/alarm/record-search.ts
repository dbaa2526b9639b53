import { resources } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { parseDateTime } from "../../contract/dates.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalId, optionalString } from "../../contract/params.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import type { SqlParams } from "../../crud/sql.ts";
import type { Db } from "../../db/client.ts";
import { areaSubtree } from "../pms/registry.hooks.ts";
import { roomLabelSql } from "../pms/room-label.ts";

type Params = Record<string, unknown>;

/**
 * The room a record's meter is installed in, joined as `place`: its id and its label as operators
 * say it, the building before the room ("2号楼 305").
 */
export const PLACE_JOIN = `left join lateral (
    select rm.room_id::text as room_id, ${roomLabelSql("rr")} as room_name from pms_room_meter rm
      join pms_room rr on rr.id = rm.room_id and rr.is_deleted = 0
     where rm.tenant_id = r.tenant_id and rm.energy_type = r.energy_type and rm.meter_id = r.meter_id
       and rm.is_deleted = 0
     limit 1) place on true`;

/**
 * The roles' data scope over electric and water meters as a predicate on a record `r`, or undefined
 * when it grants every meter: records of meters outside it read as absent, as the meters do.
 */
export async function meterScope(
  db: Db,
  request: FastifyRequest,
  sql: SqlParams,
  r = "r",
): Promise<string | undefined> {
  const electric = scopePredicate(
    resources.meter,
    request,
    await scopeRules(db, request, "meter"),
    sql,
    "sm",
  );
  const water = scopePredicate(resources.water, request, await scopeRules(db, request, "water"), sql, "sw");
  if (!electric && !water) return undefined;
  const inScope = (table: string, alias: string, predicate: string | undefined) =>
    predicate
      ? `exists (select 1 from ${table} ${alias} where ${alias}.id = ${r}.meter_id and ${alias}.tenant_id = ${r}.tenant_id and ${predicate})`
      : "true";
  return `((${r}.energy_type = 1 and ${inScope("pms_meter", "sm", electric)})
        or (${r}.energy_type = 2 and ${inScope("pms_water", "sw", water)}))`;
}

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * A rule code as the alarm_rule dictionary keys them. Codes are checked for their shape, not
 * against a list: rules are added over time, and a code no record carries simply matches nothing.
 */
const RULE_CODE_SHAPE = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * The filters of the 告警记录 search (its page and its export) as conditions on a record `r`:
 * state, level, energy type, rule, meter (id or number), rule name, area (its rooms and every area
 * below it, through the rooms the meters are installed in), room, and the time it was raised.
 * A malformed value is a 400 naming its parameter.
 */
export function recordFilters(params: Params, sql: SqlParams, timeZone: string): string[] {
  const filters: string[] = [];
  const small = (name: string, column: string, pattern: RegExp) => {
    const text = optionalString(params, name);
    if (text === undefined) return;
    if (!pattern.test(text)) throw badParam(name);
    filters.push(`${column} = ${sql.bind(Number(text))}`);
  };
  small("alarmStatus", "r.alarm_status", /^[0-3]$/);
  small("alarmLevel", "r.alarm_level", /^[0-3]$/);
  small("energyType", "r.energy_type", /^[12]$/);
  const rule = optionalString(params, "ruleCode");
  if (rule !== undefined) {
    if (!RULE_CODE_SHAPE.test(rule)) throw badParam("ruleCode");
    filters.push(`r.rule_code = ${sql.bind(rule)}`);
  }
  const meterId = optionalId(params, "meterId");
  if (meterId) filters.push(`r.meter_id = ${sql.bind(meterId)}`);
  const code = optionalString(params, "productCode");
  if (code) filters.push(`r.product_code like ${sql.bind(likeText(code))}`);
  const name = optionalString(params, "checkRuleName");
  if (name) filters.push(`r.check_rule_name like ${sql.bind(likeText(name))}`);
  const installedIn = (rooms: string) => `exists (
    select 1 from pms_room_meter fm
     where fm.tenant_id = r.tenant_id and fm.energy_type = r.energy_type and fm.meter_id = r.meter_id
       and fm.is_deleted = 0 and fm.room_id in (${rooms}))`;
  const areaId = optionalId(params, "areaId");
  if (areaId)
    filters.push(
      installedIn(
        `select fr.id from pms_room fr where fr.is_deleted = 0 and fr.area_id in (${areaSubtree(sql.bind(areaId))})`,
      ),
    );
  const roomId = optionalId(params, "roomId");
  if (roomId) filters.push(installedIn(`${sql.bind(roomId)}::bigint`));
  for (const [param, op] of [
    ["startTime", ">="],
    ["endTime", "<="],
  ] as const) {
    const text = optionalString(params, param);
    if (text === undefined) continue;
    const at = parseDateTime(text, timeZone);
    if (!at) throw badParam(param);
    filters.push(`r.create_time ${op} ${sql.bind(at)}`);
  }
  return filters;
}
