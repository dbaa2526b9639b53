import type { Queryable } from "../../db/client.ts";
import type { ManagerScope } from "./deployment.service.ts";

/** The reviewed SQL of process models; every read and write by id names the caller's scope. */

export interface ModelRow {
  id: string;
  tenant_id: string;
  model_key: string;
  name: string;
  category: string;
  description: string;
  version: number;
  create_user: string | null;
  create_user_name: string | null;
  create_time: Date;
  update_user: string | null;
  update_user_name: string | null;
  update_time: Date;
}

export interface ModelWithXml extends ModelRow {
  bpmn_xml: string;
}

const COLUMNS = `m.id, m.tenant_id, m.model_key, m.name, m.category, m.description, m.version, m.create_user,
  cu.real_name as create_user_name, m.create_time, m.update_user, uu.real_name as update_user_name, m.update_time`;
const FROM = `from wf_model m left join sys_user cu on cu.id = m.create_user left join sys_user uu on uu.id = m.update_user`;

/** The scope as a predicate on m.tenant_id from parameter `$at` on. */
const scoped = (scope: ManagerScope, at: number) =>
  scope.all
    ? { sql: "true", params: [] as string[] }
    : { sql: `m.tenant_id = $${at}`, params: [scope.tenantId] };

export async function modelPage(
  db: Queryable,
  scope: ManagerScope,
  filter: { search?: string; category?: string },
  page: { size: number; offset: number },
): Promise<{ rows: ModelRow[]; total: number }> {
  const where = scoped(scope, 3);
  // A plain substring of key or name: strpos, so % and _ typed in the search mean themselves.
  const predicate = `${where.sql}
    and ($1::text is null or strpos(lower(m.name), lower($1)) > 0 or strpos(lower(m.model_key), lower($1)) > 0)
    and ($2::text is null or m.category = $2)`;
  const params = [filter.search ?? null, filter.category ?? null, ...where.params];
  const next = params.length + 1;
  const rows = await db.query<ModelRow>(
    `select ${COLUMNS} ${FROM} where ${predicate}
      order by m.update_time desc, m.id desc limit $${next} offset $${next + 1}`,
    [...params, page.size, page.offset],
  );
  const [count] = await db.query<{ total: string }>(
    `select count(*)::text as total from wf_model m where ${predicate}`,
    params,
  );
  return { rows, total: Number(count?.total ?? 0) };
}

export async function readModel(
  db: Queryable,
  scope: ManagerScope,
  id: string,
  lock = false,
): Promise<ModelWithXml | undefined> {
  const where = scoped(scope, 2);
  const [row] = await db.query<ModelWithXml>(
    `select ${COLUMNS}, m.bpmn_xml ${FROM} where m.id = $1 and ${where.sql}${lock ? " for update of m" : ""}`,
    [id, ...where.params],
  );
  return row;
}

/** The model holding a process key in a tenant, if any (keys are unique per tenant). */
export async function modelIdOfKey(
  db: Queryable,
  tenantId: string,
  key: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>(
    "select id from wf_model where tenant_id = $1 and model_key = $2",
    [tenantId, key],
  );
  return row?.id;
}

export interface ModelWrite {
  key: string;
  name: string;
  category: string;
  description: string;
  xml: string;
  userId: string | null;
}

export async function insertModel(db: Queryable, id: string, tenantId: string, model: ModelWrite) {
  await db.query(
    `insert into wf_model (id, tenant_id, model_key, name, category, description, bpmn_xml, create_user, update_user)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [id, tenantId, model.key, model.name, model.category, model.description, model.xml, model.userId],
  );
}

/** Saves over a model; each save is the model's next version. */
export async function updateModel(db: Queryable, id: string, model: ModelWrite) {
  await db.query(
    `update wf_model set model_key = $2, name = $3, category = $4, description = $5, bpmn_xml = $6,
            update_user = $7, update_time = now(), version = version + 1
      where id = $1`,
    [id, model.key, model.name, model.category, model.description, model.xml, model.userId],
  );
}

export async function deleteModels(db: Queryable, scope: ManagerScope, ids: string[]): Promise<number> {
  const where = scoped(scope, 2);
  const rows = await db.query<{ id: string }>(
    `delete from wf_model m where m.id = any($1::bigint[]) and ${where.sql} returning m.id`,
    [ids, ...where.params],
  );
  return rows.length;
}
