import type { ResourceDef } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { cachedRead } from "../cache/shared-cache.ts";
import type { Queryable } from "../db/client.ts";
import { isAdministrator } from "../modules/auth/current-user.ts";
import { type Column, columnByName, columnsOf } from "./columns.ts";
import { ident, type SqlParams } from "./sql.ts";

export interface ScopeRule {
  scope_type: number;
  scope_column: string | null;
  scope_value: string | null;
}

const ALL = 1;
const OWN = 2;
const OWN_DEPT = 3;
const OWN_DEPT_AND_BELOW = 4;
const CUSTOM = 5;

const memo = new WeakMap<FastifyRequest, Map<string, Promise<ScopeRule[]>>>();

/**
 * The data-scope rules granted to the caller's roles for one resource (read only: shared), cached
 * per resource and set of roles until a scope or a role's scopes change.
 */
export function scopeRules(db: Queryable, request: FastifyRequest, resource: string): Promise<ScopeRule[]> {
  let perRequest = memo.get(request);
  if (!perRequest) {
    perRequest = new Map();
    memo.set(request, perRequest);
  }
  let rules = perRequest.get(resource);
  if (!rules) {
    const roleIds = [...(request.user?.roleIds ?? [])].sort();
    rules = cachedRead(db, "dataScope", `${resource}:${roleIds.join(",")}`, () =>
      db.query<ScopeRule>(
        `select s.scope_type, s.scope_column, s.scope_value
           from sys_scope_data s join sys_role_scope rs on rs.scope_id = s.id and rs.scope_category = 1
          where rs.role_id = any($1::bigint[]) and s.resource_code = $2 and s.is_deleted = 0`,
        [roleIds, resource],
      ),
    );
    perRequest.set(resource, rules);
  }
  return rules;
}

/** A rule's column must be one of the resource's own columns, named by field or by column. */
function columnOf(def: ResourceDef, name: string | null, fallback: string): Column | undefined {
  const wanted = name || fallback;
  return columnByName(def, wanted) ?? columnsOf(def).find((c) => c.column === wanted);
}

/**
 * The data scope as one predicate: the OR of the caller's rules (the most generous wins), nothing
 * when a rule grants everything or no rule applies, and `false` for a rule that names an unknown
 * column or an unknown custom term. Values are always bound, never spliced.
 */
export function scopePredicate(
  def: ResourceDef,
  request: FastifyRequest,
  rules: ScopeRule[],
  sql: SqlParams,
  alias = "t",
): string | undefined {
  const user = request.user;
  if (!user || isAdministrator(user) || rules.length === 0 || rules.some((r) => r.scope_type === ALL))
    return undefined;
  const parts = rules.map((rule) => {
    const fallback = rule.scope_type === OWN ? "createUser" : "createDept";
    const column = columnOf(def, rule.scope_column, fallback);
    if (!column) return "false";
    const target = `${alias}.${ident(column.column)}`;
    switch (rule.scope_type) {
      case OWN:
        return `${target} = ${sql.bind(user.userId)}`;
      case OWN_DEPT:
        return `${target} = any(${sql.bind(user.deptIds)}::bigint[])`;
      case OWN_DEPT_AND_BELOW: {
        const depts = sql.bind(user.deptIds);
        return `${target} in (select d.id from sys_dept d where d.is_deleted = 0 and (d.id = any(${depts}::bigint[])
                 or exists (select 1 from unnest(${depts}::text[]) u(dept)
                             where (',' || d.ancestors || ',') like '%,' || u.dept || ',%')))`;
      }
      case CUSTOM:
        return customPredicate(def, rule.scope_value, request, sql, alias);
      default:
        return "false";
    }
  });
  return `(${parts.join(" or ")})`;
}

/** `{"field","op","value"}` with op in / eq and value $userId / $deptIds / $tenantId / a literal. */
function customPredicate(
  def: ResourceDef,
  text: string | null,
  request: FastifyRequest,
  sql: SqlParams,
  alias: string,
): string {
  const user = request.user!;
  let rule: { field?: unknown; op?: unknown; value?: unknown };
  try {
    rule = JSON.parse(text ?? "");
  } catch {
    return "false";
  }
  const column = typeof rule.field === "string" ? columnOf(def, rule.field, "") : undefined;
  if (!column || (rule.op !== "in" && rule.op !== "eq") || typeof rule.value !== "string") return "false";
  const tokens: Record<string, string[]> = {
    $userId: [user.userId],
    $deptIds: user.deptIds,
    $tenantId: [user.tenantId],
  };
  const values = tokens[rule.value] ?? (rule.value.startsWith("$") ? undefined : [rule.value]);
  if (!values) return "false";
  return `${alias}.${ident(column.column)}::text = any(${sql.bind(values)}::text[])`;
}
