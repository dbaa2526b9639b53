import type { ResourceDef } from "@meterline/contracts";
import type { Queryable } from "../db/client.ts";
import type { CurrentUser } from "../modules/auth/current-user.ts";
import type { Column } from "./columns.ts";
import type { TenantRows } from "./scope.ts";
import type { Row } from "./serialize.ts";
import type { SqlParams } from "./sql.ts";

export interface HookContext {
  db: Queryable;
  def: ResourceDef;
  user: CurrentUser;
}

/**
 * Rules a plain resource needs beyond its definition (hash a password, refuse a sealed row). Most
 * resources have none; one that grows real domain logic moves to a module instead.
 */
export interface ResourceHooks {
  /** Adjusts or checks the values before they are written; `id` is set on update. */
  beforeWrite?(ctx: HookContext, values: Map<Column, unknown>, id?: string): Promise<void>;
  /** Runs in the write's transaction once the row is stored (change logs, derived rows). */
  afterWrite?(ctx: HookContext, id: string, mode: "create" | "update"): Promise<void>;
  beforeRemove?(ctx: HookContext, ids: string[]): Promise<void>;
  /**
   * Rows of other tenants a tenant sees besides its own (defaults kept by the platform tenant);
   * replaces the tenant condition for everyone but the platform administrator.
   */
  tenantRows?: TenantRows;
  /** Rows some callers must never see at all, beyond tenant and data scope (alias `t`). */
  hiddenRows?(user: CurrentUser, sql: SqlParams): string[];
  /**
   * List parameters the definition cannot express (a dept and everything below it): each takes the
   * parameter's text and returns a predicate on alias `t`, in place of the generic filter.
   */
  customFilters?: Record<string, (value: string, sql: SqlParams) => string | undefined>;
  /**
   * Derived fields read in the rows' own statement (key → SQL expression over alias `t`, answered
   * as text): labels of links the definition cannot name (an owner's rooms and group), without a
   * statement of their own. They come with every read that asks for labels (lists, detail, export).
   */
  labelColumns?: Readonly<Record<string, string>>;
  /** Adds derived fields (names of references) to rows on their way out. */
  decorate?(ctx: HookContext, rows: Row[]): Promise<void>;
}
