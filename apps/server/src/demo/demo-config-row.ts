import type { ResourceDef } from "@meterline/contracts";
import type { FieldCipher } from "../crud/field-cipher.ts";
import { readInput } from "../crud/input.ts";
import { ResourceStore } from "../crud/store.ts";
import { encryptValues } from "../crud/write-routes.ts";
import type { Queryable } from "../db/client.ts";
import { serviceUser } from "../modules/auth/current-user.ts";
import { DEMO_TENANT_ID } from "./demo-site.ts";

/**
 * Writes the demo tenant's configuration row of a payment channel (`rowId` when it has one) through
 * the resource's own input rules and field encryption, as an operator's save would.
 */
export async function saveDemoConfigRow(
  db: Queryable,
  cipher: FieldCipher,
  def: ResourceDef,
  rowId: string | undefined,
  body: Record<string, unknown>,
): Promise<void> {
  const store = new ResourceStore(db, def);
  const user = serviceUser(DEMO_TENANT_ID, "demo", { realName: "演示数据" });
  if (rowId)
    await store.update(
      rowId,
      encryptValues(readInput(def, body, "update", "Asia/Shanghai"), cipher),
      user,
      (sql) => [`t.tenant_id = ${sql.bind(DEMO_TENANT_ID)}`],
    );
  else
    await store.insert(
      encryptValues(readInput(def, body, "create", "Asia/Shanghai"), cipher),
      user,
      DEMO_TENANT_ID,
    );
}
