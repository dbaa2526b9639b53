import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { type Building, buildingNamePatterns, buildingOf, sameBuilding } from "./keyword-readings.ts";

/**
 * The areas each building typed may mean, in the order given (ids as text): the areas the caller
 * sees whose name holds the building's number or letters (a trigram index answers that), then
 * judged by their whole name (keyword-readings.ts: "2" is 2号楼, 2栋, B2, 二号楼). `visible` gives
 * the predicates of the caller's areas, alias `a`.
 */
export async function areasNaming(
  db: Queryable,
  buildings: Building[],
  visible: (sql: SqlParams) => Promise<string>,
): Promise<string[][]> {
  if (buildings.length === 0) return [];
  const sql = new SqlParams();
  const patterns = [...new Set(buildings.flatMap(buildingNamePatterns))];
  const rows = await db.query<{ id: string; area_name: string }>(
    `select a.id::text as id, a.area_name from pms_area a
      where ${await visible(sql)} and a.area_name ilike any(${sql.bind(patterns)}::text[])`,
    sql.values,
  );
  const named = rows.map((row) => ({ id: row.id, building: buildingOf(row.area_name) }));
  return buildings.map((typed) =>
    named.filter((area) => area.building && sameBuilding(typed, area.building)).map((area) => area.id),
  );
}

/** The areas of `ids` and every area below them, as a sub-select. */
export function areasBelow(sql: SqlParams, ids: string[]): string {
  return `select s.id from pms_area s where s.is_deleted = 0
    and (s.id = any(${sql.bind(ids)}::bigint[]) or string_to_array(s.ancestors, ',') && ${sql.bind(ids)}::text[])`;
}
