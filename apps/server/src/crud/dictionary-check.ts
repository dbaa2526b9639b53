import { badRequest } from "../contract/errors.ts";
import type { Queryable } from "../db/client.ts";
import type { Column } from "./columns.ts";

/** Dictionary-backed fields accept only the keys of their dictionary (the tenant's, for business ones). */
export async function assertDictionaryValues(
  db: Queryable,
  values: Map<Column, unknown>,
  tenantId: string,
): Promise<void> {
  for (const [column, value] of values) {
    const { dict, dictBiz } = column.field;
    if ((!dict && !dictBiz) || value === null || value === undefined) continue;
    const rows = dict
      ? await db.query(
          "select 1 from sys_dict where code = $1 and dict_key = $2 and parent_id > 0 and is_deleted = 0",
          [dict, String(value)],
        )
      : await db.query(
          `select 1 from sys_dict_biz where code = $1 and dict_key = $2 and parent_id > 0 and is_deleted = 0
              and tenant_id = $3`,
          [dictBiz, String(value), tenantId],
        );
    if (rows.length === 0) {
      throw badRequest(`${column.name}: [${String(value)}] 不是字典 ${dict ?? dictBiz} 的有效值`);
    }
  }
}
