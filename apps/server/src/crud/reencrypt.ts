import { type ResourceDef, resources } from "@meterline/contracts";
import type { Db } from "../db/client.ts";
import { columnsOf } from "./columns.ts";
import type { FieldCipher } from "./field-cipher.ts";
import { ident } from "./sql.ts";

// Several servers may start at once: they take turns, and the second finds nothing left to do.
const REENCRYPT_LOCK = 7_046_452;

export interface ReencryptResult {
  /** Values an older key had written, now under the current one. */
  reencrypted: number;
  /** Values no key of this server can read: left untouched for an operator to look at. */
  unreadable: number;
}

/**
 * Moves every stored secret (the definitions' `encrypted` fields) to the current data key: run at
 * start, so a rotation (DATA_ENCRYPTION_KEY new, DATA_ENCRYPTION_KEY_PREVIOUS old) finishes
 * itself, and values keyed from the signing secret before the data key existed move over too.
 */
export async function reencryptStoredSecrets(
  db: Db,
  cipher: FieldCipher,
  defs: readonly ResourceDef[] = Object.values(resources),
): Promise<ReencryptResult> {
  const result: ReencryptResult = { reencrypted: 0, unreadable: 0 };
  await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [REENCRYPT_LOCK]);
    for (const def of defs) {
      for (const { column } of columnsOf(def).filter((c) => c.field.encrypted)) {
        const rows = await tx.query<{ id: string; value: string }>(
          `select id::text as id, ${ident(column)} as value from ${ident(def.table)}
            where ${ident(column)} is not null and ${ident(column)} <> ''`,
        );
        for (const row of rows) {
          const moved = cipher.reencrypt(row.value);
          if (moved) {
            await tx.query(`update ${ident(def.table)} set ${ident(column)} = $2 where id = $1`, [
              row.id,
              moved,
            ]);
            result.reencrypted++;
          } else if (cipher.decrypt(row.value) === undefined) result.unreadable++;
        }
      }
    }
  });
  return result;
}
