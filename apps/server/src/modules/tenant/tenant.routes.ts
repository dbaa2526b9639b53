import type { TenantDomainInfo } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";

export async function tenantRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.get(
    "/api/blade-system/tenant/info",
    {
      // The login page asks before anyone has signed in (contract §9.2).
      config: { public: true },
      schema: { tags: ["tenant"], summary: "Tenant bound to a domain, for the login page" },
    },
    async (request) => {
      const domain = optionalString(readParams(request), "domain");
      if (!domain) return ok<TenantDomainInfo>({});
      const rows = await opts.db.query<{ tenant_id: string; domain: string; background_url: string | null }>(
        "select tenant_id, domain, background_url from sys_tenant where domain = $1 and is_deleted = 0 limit 1",
        [domain],
      );
      const row = rows[0];
      return ok<TenantDomainInfo>(
        row ? { tenantId: row.tenant_id, domain: row.domain, backgroundUrl: row.background_url ?? "" } : {},
      );
    },
  );
}
