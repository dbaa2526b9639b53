import type { ResourceDef } from "@meterline/contracts";
import { cachedRead } from "../cache/shared-cache.ts";
import type { Queryable } from "../db/client.ts";
import type { CurrentUser } from "../modules/auth/current-user.ts";
import { columnsOf } from "./columns.ts";
import type { Row } from "./serialize.ts";

/**
 * Adds `<field>Name` (and `<field>NameEn`) to rows for every dictionary-backed field, as the
 * contract's VOs do (`categoryName`, `sexName`…), from the shared cache (one query per dictionary
 * when it is cold; edits to dictionaries drop it).
 */
export async function addDictionaryNames(db: Queryable, def: ResourceDef, rows: Row[], user: CurrentUser) {
  if (rows.length === 0) return;
  for (const column of columnsOf(def)) {
    const { dict, dictBiz } = column.field;
    if (!dict && !dictBiz) continue;
    const byKey = await (dict ? systemLabels(db, dict) : businessLabels(db, dictBiz!, user.tenantId));
    for (const row of rows) {
      const label = byKey.get(String(row[column.name] ?? ""));
      row[`${column.name}Name`] = label?.dict_value ?? "";
      row[`${column.name}NameEn`] = label?.dict_value_en ?? "";
    }
  }
}

interface Label {
  dict_key: string;
  dict_value: string;
  dict_value_en: string | null;
}

type Labels = ReadonlyMap<string, Label>;

const labelsByKey = (labels: Label[]): Labels => new Map(labels.map((l) => [l.dict_key, l]));

const systemLabels = (db: Queryable, code: string): Promise<Labels> =>
  cachedRead(db, "dict", code, async () =>
    labelsByKey(
      await db.query<Label>(
        "select dict_key, dict_value, dict_value_en from sys_dict where code = $1 and parent_id > 0 and is_deleted = 0",
        [code],
      ),
    ),
  );

const businessLabels = (db: Queryable, code: string, tenantId: string): Promise<Labels> =>
  cachedRead(db, "dictBiz", `${tenantId}:${code}`, async () =>
    labelsByKey(
      await db.query<Label>(
        `select dict_key, dict_value, dict_value_en from sys_dict_biz
          where code = $1 and parent_id > 0 and is_deleted = 0 and tenant_id = $2`,
        [code, tenantId],
      ),
    ),
  );
