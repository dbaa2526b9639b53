import { resources, type TenantDomainInfo } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { parseDateTime } from "../../contract/dates.ts";
import { ok } from "../../contract/envelope.ts";
import { badParam, badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, readParams } from "../../contract/params.ts";
import { NOT_FOUND_MESSAGE } from "../../crud/context.ts";
import { readInput } from "../../crud/input.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { visibleRows } from "../../crud/scope.ts";
import { SqlParams } from "../../crud/sql.ts";
import { ResourceStore } from "../../crud/store.ts";
import type { Db } from "../../db/client.ts";
import { ANY_TENANT, answerFilesFor } from "../../plugins/file-links.ts";
import { TenantRepository } from "./tenant.repository.ts";
import { provisionTenant } from "./tenant.service.ts";
import { handLogoToTenant } from "./tenant-logo.ts";

const def = resources.tenant;
const base = "/api/blade-system/tenant";

/** Tenant writes: provisioning on create, settings, and removal with the tenant's users (contract §9.2). */
export async function tenantRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const tags = ["tenant"];

  app.get(
    `${base}/info`,
    { config: { public: true }, schema: { tags, summary: "Tenant bound to a domain, for the login page" } },
    async (request) => {
      const domain = optionalString(readParams(request), "domain");
      if (!domain) return ok<TenantDomainInfo>({});
      const rows = await db.query<{ tenant_id: string; domain: string; background_url: string | null }>(
        "select tenant_id, domain, background_url from sys_tenant where domain = $1 and is_deleted = 0 limit 1",
        [domain],
      );
      const row = rows[0];
      // The background is the platform administrator's upload (tenant writes are theirs alone).
      if (row) answerFilesFor(request, ANY_TENANT);
      return ok<TenantDomainInfo>(
        row ? { tenantId: row.tenant_id, domain: row.domain, backgroundUrl: row.background_url ?? "" } : {},
      );
    },
  );

  app.post(
    `${base}/submit`,
    { schema: { tags, summary: "Create (provision) or update a tenant" } },
    async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const id = body.id ? optionalId(body, "id") : undefined;
      const user = await requirePermission(db, request, [id ? "tenant_edit" : "tenant_add"], "administrator");
      const values = readInput(def, body, id ? "update" : "create", timeZone);
      return db.transaction(async (tx) => {
        if (!id) {
          const tenantName = String(body.tenantName);
          const provisioned = await provisionTenant(tx, { tenantName, values });
          await handLogoToTenant(tx, provisioned.tenantId, body.logoUrl);
          return ok(provisioned, "租户已创建,请妥善保存管理员初始密码");
        }
        const updated = await new ResourceStore(tx, def).update(id, values, user, (s) =>
          visibleRows(def, user, s),
        );
        if (!updated) throw notFound(NOT_FOUND_MESSAGE);
        const [tenant] = await tx.query<{ tenant_id: string }>(
          "select tenant_id from sys_tenant where id = $1",
          [id],
        );
        if (tenant) await handLogoToTenant(tx, tenant.tenant_id, body.logoUrl);
        return ok({ id });
      });
    },
  );

  app.post(
    `${base}/remove`,
    { schema: { tags, summary: "Remove tenants and their users" } },
    async (request) => {
      const user = await requirePermission(db, request, ["tenant_delete"], "administrator");
      const ids = idList(readParams(request), "ids");
      return db.transaction(async (tx) => {
        const rows = await tx.query<{ tenant_id: string }>(
          "select tenant_id from sys_tenant where id = any($1::bigint[]) and is_deleted = 0",
          [ids],
        );
        if (rows.length !== new Set(ids).size) throw notFound(NOT_FOUND_MESSAGE);
        if (rows.some((r) => r.tenant_id === "000000")) throw badRequest("不可删除管理租户!");
        await new TenantRepository(tx).removeTenants(ids, user.userId);
        return ok({});
      });
    },
  );

  app.post(
    `${base}/setting`,
    { schema: { tags, summary: "Account limit and expiry of tenants" } },
    async (request) => {
      const user = await requirePermission(db, request, ["tenant_setting", "tenant_edit"], "administrator");
      const params = readParams(request);
      const ids = idList(params, "ids");
      const accountNumber = Number(optionalString(params, "accountNumber") ?? -1);
      if (!Number.isInteger(accountNumber) || accountNumber < -1) throw badParam("accountNumber");
      const expireText = optionalString(params, "expireTime");
      const expireTime = expireText ? parseDateTime(expireText, timeZone) : null;
      if (expireText && !expireTime) throw badParam("expireTime");
      const sql = new SqlParams();
      const updated = await db.query(
        `update sys_tenant set account_number = ${sql.bind(accountNumber)}, expire_time = ${sql.bind(expireTime)},
              update_user = ${sql.bind(user.userId)}, update_time = now()
        where id = any(${sql.bind(ids)}::bigint[]) and is_deleted = 0 returning id`,
        sql.values,
      );
      if (updated.length !== new Set(ids).size) throw notFound(NOT_FOUND_MESSAGE);
      return ok({});
    },
  );

  app.post(
    `${base}/datasource`,
    { schema: { tags, summary: "Dedicated data source of a tenant" } },
    async (request) => {
      await requirePermission(db, request, ["tenant_edit"], "administrator");
      // Every tenant lives in the one PostgreSQL database; a separate database per tenant is not offered.
      throw badRequest("datasourceId: 暂不支持为租户配置独立数据源,所有租户共用主数据库");
    },
  );
}
