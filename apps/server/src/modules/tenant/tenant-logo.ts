import type { Queryable } from "../../db/client.ts";
import { FILE_LINK_BASE } from "../../plugins/file-links.ts";

/**
 * A site's logo is the tenant's own file: the platform administrator uploads it on the tenant's
 * record (so it is stored in the platform's tenant), and it is handed to the tenant here, so the
 * links in the tenant's own answers (receipts, closing slips) are signed for its operators.
 */
export async function handLogoToTenant(tx: Queryable, tenantId: string, logoUrl: unknown): Promise<void> {
  if (typeof logoUrl !== "string" || !logoUrl.startsWith(`${FILE_LINK_BASE}/`)) return;
  const name = logoUrl.slice(FILE_LINK_BASE.length + 1).replace(/\?.*$/, "");
  for (const table of ["blade_attach", "res_file"] as const)
    await tx.query(`update ${table} set tenant_id = $1 where name = $2 and tenant_id = '000000'`, [
      tenantId,
      name,
    ]);
}
