import type { ResourceDef } from "@meterline/contracts";
import type { Queryable } from "../db/client.ts";
import type { CurrentUser } from "../modules/auth/current-user.ts";
import { columnsOf } from "./columns.ts";
import type { Row } from "./serialize.ts";

/**
 * Adds `<field>Name` (and `<field>NameEn`) to rows for every dictionary-backed field, as the
 * contract's VOs do (`categoryName`, `sexName`…), in one query per dictionary.
 */
export async function addDictionaryNames(db: Queryable, def: ResourceDef, rows: Row[], user: CurrentUser) {
  if (rows.length === 0) return;
  for (const column of columnsOf(def)) {
    const { dict, dictBiz } = column.field;
    if (!dict && !dictBiz) continue;
    const labels = await db.query<{ dict_key: string; dict_value: string; dict_value_en: string | null }>(
      dict
        ? "select dict_key, dict_value, dict_value_en from sys_dict where code = $1 and parent_id > 0 and is_deleted = 0"
        : `select dict_key, dict_value, dict_value_en from sys_dict_biz
            where code = $1 and parent_id > 0 and is_deleted = 0 and tenant_id = $2`,
      dict ? [dict] : [dictBiz, user.tenantId],
    );
    const byKey = new Map(labels.map((l) => [l.dict_key, l]));
    for (const row of rows) {
      const label = byKey.get(String(row[column.name] ?? ""));
      row[`${column.name}Name`] = label?.dict_value ?? "";
      row[`${column.name}NameEn`] = label?.dict_value_en ?? "";
    }
  }
}
