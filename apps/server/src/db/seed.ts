import { PLATFORM_TENANT_ID } from "@meterline/contracts";
import { hashClientSecret } from "../modules/auth/client-secret.ts";
import { hashPassword, md5Hex } from "../modules/auth/password.ts";
import type { Db } from "./client.ts";
import { nextId } from "./ids.ts";

const ADMINISTRATOR_ROLE_ID = "1";
const PLATFORM_DEPT_ID = "1";

/**
 * Creates the platform administrator `admin` once, with the configured password. A later start
 * leaves the account, and any password changed since, alone.
 */
export async function seed(db: Db, options: { adminPassword: string }): Promise<{ createdAdmin: boolean }> {
  const existing = await db.query("select 1 from sys_user where tenant_id = $1 and account = 'admin'", [
    PLATFORM_TENANT_ID,
  ]);
  if (existing.length > 0) return { createdAdmin: false };
  const password = await hashPassword(md5Hex(options.adminPassword));
  await db.query(
    // The family's user form requires a post: the platform's own (seed migration 016), when it has it.
    `insert into sys_user (id, tenant_id, code, account, password, name, real_name, role_id, dept_id, sex, post_id)
     values ($1, $2::varchar, 'admin', 'admin', $3, '管理员', '管理员', $4, $5, 1,
             coalesce((select id::text from sys_post where id = 1 and tenant_id = $2::varchar and is_deleted = 0), ''))
     on conflict do nothing`,
    [nextId(), PLATFORM_TENANT_ID, password, ADMINISTRATOR_ROLE_ID, PLATFORM_DEPT_ID],
  );
  return { createdAdmin: true };
}

/** The OAuth client the console signs in with; its published secret works only until one is set. */
export const CONSOLE_CLIENT_ID = "saber";

/**
 * Replaces the console client's secret with a hash of the operator's own, at every start, so the
 * published `saber_secret` stops working and a changed CLIENT_SECRET takes over.
 */
export async function applyClientSecret(db: Db, clientSecret: string): Promise<void> {
  await db.query(
    "update sys_client set client_secret = $2, update_time = now() where client_id = $1 and is_deleted = 0",
    [CONSOLE_CLIENT_ID, hashClientSecret(clientSecret)],
  );
}
