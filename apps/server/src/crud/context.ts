import {
  permissionCodes,
  pickerCodesOf,
  type ResourceDef,
  readCodesOf,
  resourceBase,
} from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { isAdmin } from "../modules/auth/current-user.ts";
import { scopePredicate, scopeRules } from "./data-scope.ts";
import { addDictionaryNames } from "./dictionary-names.ts";
import type { FieldCipher } from "./field-cipher.ts";
import { listFilters } from "./filters.ts";
import type { HookContext, ResourceHooks } from "./hooks.ts";
import { requirePermission } from "./permissions.ts";
import { visibleRows } from "./scope.ts";
import { type Row, serializeRow } from "./serialize.ts";
import { SqlParams } from "./sql.ts";
import { ResourceStore } from "./store.ts";
import { askedTenant, showsTenant } from "./tenant-column.ts";

export interface EngineOptions {
  db: Db;
  timeZone: string;
  /** Encrypts the definitions' `encrypted` fields. */
  cipher: FieldCipher;
  hooks?: ResourceHooks;
}

export const NOT_FOUND_MESSAGE = "数据不存在或无权访问";

/** What every route of one resource shares: its store, codes, paths and the row pipeline. */
export function resourceContext(app: FastifyInstance, def: ResourceDef, options: EngineOptions) {
  const { db, timeZone, cipher, hooks = {} } = options;
  const base = resourceBase(def);
  const codes = permissionCodes(def);
  const hookContext = (request: FastifyRequest): HookContext => ({ db, def, user: request.user! });
  const custom = Object.keys(hooks.customFilters ?? {});
  const labelKeys = Object.keys(hooks.labelColumns ?? {});
  const customFilterConditions = (params: Record<string, unknown>, sql: SqlParams) =>
    Object.entries(hooks.customFilters ?? {}).flatMap(([name, filter]) => {
      const value = params[name];
      const condition = typeof value === "string" && value !== "" ? filter(value, sql) : undefined;
      return condition ? [condition] : [];
    });
  return {
    app,
    def,
    db,
    timeZone,
    cipher,
    hooks,
    codes,
    store: new ResourceStore(db, def, hooks.labelColumns),
    /** Seeing the screen: its menu code or any of its buttons. */
    readCodes: readCodesOf(def),
    /** Using its pickers: its own screen or any screen whose forms pick its rows. */
    pickerCodes: pickerCodesOf(def.name),
    /** Passes a picker call: the screens that pick the rows, or the family's guard of the pickers. */
    async requirePicker(request: FastifyRequest) {
      const user = request.user;
      if (def.pickerGuard === "admin" && user && isAdmin(user)) return user;
      return requirePermission(db, request, pickerCodesOf(def.name), def.guard);
    },
    base,
    tags: [def.name],
    hookContext,
    /**
     * Rows on their way out: contract JSON, dictionary names, then the resource's own additions.
     * The links' labels come with the rows (ListQuery.labels).
     */
    async out(request: FastifyRequest, rows: Row[]): Promise<Row[]> {
      const serialized = rows.map((row) => {
        const out = serializeRow(def, row, timeZone);
        for (const key of labelKeys) if (key in row) out[key] = String(row[key] ?? "");
        return out;
      });
      await addDictionaryNames(db, def, serialized, request.user!);
      await hooks.decorate?.(hookContext(request), serialized);
      return serialized;
    },
    /** Rows the caller may see at all: tenant, soft delete, and the data scope of its roles. */
    async visible(request: FastifyRequest, sql: SqlParams, tenantId?: string): Promise<string[]> {
      const conditions = visibleRows(def, request.user!, sql, { tenantId, tenantRows: hooks.tenantRows });
      conditions.push(...(hooks.hiddenRows?.(request.user!, sql) ?? []));
      if (def.dataScope) {
        const scope = scopePredicate(def, request, await scopeRules(db, request, def.name), sql);
        if (scope) conditions.push(scope);
      }
      return conditions;
    },
    /** The caller's visible rows narrowed by the list call's filters. */
    async query(request: FastifyRequest, params: Record<string, unknown>) {
      const sql = new SqlParams();
      const tenantId = askedTenant(params);
      const conditions = [
        ...(await this.visible(request, sql, tenantId)),
        ...listFilters(def, withoutKeys(params, custom), sql, timeZone),
        ...customFilterConditions(params, sql),
      ];
      return { sql, conditions, tenantName: showsTenant(def, request.user!), labels: true };
    },
  };
}

const withoutKeys = (params: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(Object.entries(params).filter(([key]) => !keys.includes(key)));

export type ResourceContext = ReturnType<typeof resourceContext>;
