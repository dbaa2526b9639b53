import type { FieldDef, ResourceDef } from "@meterline/contracts";
import type { Queryable } from "../src/db/client.ts";

/** A valid value for a field, distinct per `seed`, within the field's limits. */
async function sampleValue(db: Queryable, field: FieldDef, seed: string): Promise<unknown> {
  const dictCode = field.dict ?? field.dictBiz;
  if (dictCode) {
    const table = field.dict ? "sys_dict" : "sys_dict_biz";
    const rows = await db
      .query<{ dict_key: string }>(
        `select dict_key from ${table} where code = $1 and parent_id > 0 and is_deleted = 0 order by sort limit 1`,
        [dictCode],
      )
      .catch(() => []);
    const key = rows[0]?.dict_key ?? "1";
    return field.type === "int" ? Number(key) : key;
  }
  switch (field.type) {
    case "int":
      return Math.max(field.min ?? 1, 1);
    case "decimal":
      return "12.3400";
    case "id":
      return "1";
    case "idList":
      return "1";
    case "datetime":
      return "2026-11-22 08:30:00";
    case "date":
      return "2026-11-22";
    default: {
      const text = `${seed}`;
      return field.maxLength ? text.slice(0, field.maxLength) : text;
    }
  }
}

/** A complete, valid submit body for a resource; text fields carry `seed` so searches can find them. */
export async function sampleBody(
  db: Queryable,
  def: ResourceDef,
  seed: string,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.form === false) continue;
    if (def.tree?.parent === name) {
      body[name] = "0"; // a root: trees are exercised by their own tests
      continue;
    }
    body[name] = await sampleValue(db, field, `${seed}${name.slice(0, 2)}`);
  }
  return body;
}

/** The first text field a list can search by `like`, used to find rows again. */
export function searchableText(def: ResourceDef): string | undefined {
  return Object.entries(def.fields).find(
    ([, f]) => f.search === "like" && (f.type === "string" || f.type === "text"),
  )?.[0];
}
