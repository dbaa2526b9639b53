import type { FastifyInstance } from "fastify";
import type { Db } from "../src/db/client.ts";

export interface ApiRoute {
  method: "GET" | "POST";
  /** The documented path; wildcards and path parameters are filled with a plain name. */
  path: string;
  /** As the OpenAPI document spells it, for messages and allow-lists. */
  documented: string;
}

/** Every GET and POST route of the API, read from the server's own OpenAPI document. */
export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([documented, operations]) =>
    Object.keys(operations)
      .filter((method) => method === "get" || method === "post")
      .map((method) => ({
        method: method.toUpperCase() as ApiRoute["method"],
        path: documented.replace(/\{[^}]*\}/g, "probe.txt"),
        documented,
      })),
  );
}

/** Tables holding tenant rows: every table with a tenant_id column. */
export async function tenantTables(db: Db): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
       join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
      where c.column_name = 'tenant_id' and c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name`,
  );
  return rows.map((r) => r.table_name);
}

/**
 * Everything stored for one tenant, as text: its rows in every tenant table and the grants of its
 * roles. Comparing two snapshots says whether anything of the tenant changed.
 */
export async function tenantSnapshot(db: Db, tenantId: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const table of await tenantTables(db)) {
    const rows = await db.query(`select to_jsonb(t)::text as row from "${table}" t where t.tenant_id = $1`, [
      tenantId,
    ]);
    snapshot[table] = rows
      .map((r) => String(r.row))
      .sort()
      .join("\n");
  }
  const grants = await db.query<{ row: string }>(
    `select to_jsonb(rm)::text as row from sys_role_menu rm
       join sys_role r on r.id = rm.role_id where r.tenant_id = $1`,
    [tenantId],
  );
  snapshot.sys_role_menu = grants
    .map((r) => r.row)
    .sort()
    .join("\n");
  return snapshot;
}
