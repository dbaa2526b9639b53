import type { FastifyRequest } from "fastify";
import { cachedRead } from "../cache/shared-cache.ts";
import { ApiError, unauthorized } from "../contract/errors.ts";
import type { Queryable } from "../db/client.ts";
import { type CurrentUser, isAdmin, isAdministrator } from "../modules/auth/current-user.ts";

const memo = new WeakMap<FastifyRequest, Promise<ReadonlySet<string>>>();

/**
 * Menu and button codes granted to the caller's roles (read only: the set is shared). The platform
 * administrator holds them all. Cached per set of roles until a grant or a menu changes.
 */
export function grantedCodes(db: Queryable, request: FastifyRequest): Promise<ReadonlySet<string>> {
  let codes = memo.get(request);
  if (!codes) {
    const roleIds = [...(request.user?.roleIds ?? [])].sort();
    codes = cachedRead(db, "grants", roleIds.join(","), () =>
      db
        .query<{ code: string }>(
          `select distinct m.code from sys_role_menu rm join sys_menu m on m.id = rm.menu_id and m.is_deleted = 0
            where rm.role_id = any($1::bigint[])`,
          [roleIds],
        )
        .then((rows): ReadonlySet<string> => new Set(rows.map((r) => r.code))),
    );
    memo.set(request, codes);
  }
  return codes;
}

export type Guard = "administrator" | "admin" | undefined;

/**
 * Passes when the caller may use the guard's level and holds one of the codes (any code when empty).
 * `refusal` is the message of a missing code, when the call can say which permission it needs.
 */
export async function requirePermission(
  db: Queryable,
  request: FastifyRequest,
  codes: string[],
  guard?: Guard,
  refusal?: string,
): Promise<CurrentUser> {
  const user = request.user;
  if (!user) throw unauthorized();
  if (isAdministrator(user)) return user;
  if (guard === "administrator" || (guard === "admin" && !isAdmin(user))) throw forbiddenError();
  if (codes.length === 0) return user;
  const granted = await grantedCodes(db, request);
  if (!codes.some((code) => granted.has(code))) throw forbiddenError(refusal);
  return user;
}

/**
 * Permission failures answer 403 with body code 403: the console toasts it instead of logging the
 * user out, which a 401 would do (contract §4.1 notes that wart of the family).
 */
const forbiddenError = (message = "无权限执行此操作") => new ApiError(403, message);
