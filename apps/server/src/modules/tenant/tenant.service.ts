import { randomBytes, randomInt } from "node:crypto";
import type { Column } from "../../crud/columns.ts";
import { ident } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { hashPassword, md5Hex } from "../auth/password.ts";
import { TenantRepository } from "./tenant.repository.ts";

export const DEFAULT_TENANT_MENUS = [
  "desk",
  "post",
  "dictbiz",
  "topmenu",
  "log_api",
  "log_error",
  "log_usual",
];

export interface Provisioned {
  id: string;
  tenantId: string;
  account: string;
  /** Shown once to the operator who created the tenant; only its hash is stored. */
  password: string;
}

/** A random 6-digit tenant code, drawn again while taken (contract §9.1). */
async function freshCode(repo: TenantRepository): Promise<string> {
  for (;;) {
    const code = String(randomInt(100_000, 1_000_000));
    if (code !== "000000" && !(await repo.codeTaken(code))) return code;
  }
}

/** A readable one-time password: no look-alike characters, 12 of them. */
function initialPassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join("");
}

/**
 * Creates a tenant ready to use: its row, an administrator role granted the default menus and
 * everything below them, a root dept named after it, a CEO post, a copy of the platform's business
 * dictionaries, and an `admin` account with a fresh random password (never a shared default).
 */
export async function provisionTenant(
  db: Queryable,
  input: { tenantName: string; values: Map<Column, unknown>; tenantId?: string },
): Promise<Provisioned> {
  const repo = new TenantRepository(db);
  // A fixed code only for the demo site, which the README names; operators always get a fresh one.
  const tenantId = input.tenantId ?? (await freshCode(repo));
  const id = nextId();
  const columns = new Map([...input.values].map(([c, v]) => [ident(c.column), v]));
  if (columns.get('"account_number"') == null) {
    columns.set('"account_number"', Number((await repo.param("tenant.default.accountNumber")) ?? -1));
  }
  const names = ['"id"', '"tenant_id"', ...columns.keys()];
  const values = [id, tenantId, ...columns.values()];
  await db.query(
    `insert into sys_tenant (${names.join(", ")}) values (${names.map((_, i) => `$${i + 1}`).join(", ")})`,
    values,
  );
  const roleId = await repo.insertRole(tenantId);
  const menuCodes = ((await repo.param("tenant.default.menuCode")) ?? DEFAULT_TENANT_MENUS.join(","))
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  await repo.grantMenuTrees(roleId, menuCodes);
  const deptId = await repo.insertDept(tenantId, input.tenantName);
  await repo.insertPost(tenantId);
  await repo.copyBusinessDictionaries(tenantId);
  const password = initialPassword();
  await repo.insertAdmin(tenantId, roleId, deptId, await hashPassword(md5Hex(password)));
  return { id, tenantId, account: "admin", password };
}
