import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { weakPasswordReason } from "../../secret-strength.ts";
import { paramValue } from "../param/param-values.ts";

/** The family's initial password when a tenant sets none (contract §5.2). */
const FAMILY_DEFAULT = "123456";

/**
 * The initial password of a tenant's reset or imported users: its `account.initPassword`. A
 * production server refuses to hand out a weak one (the family's 123456 included: everybody knows
 * it), naming the parameter to set; the embedded demo keeps the family's default.
 */
export async function initialPassword(db: Queryable, tenantId: string, production: boolean): Promise<string> {
  const value = (await paramValue(db, "account.initPassword", tenantId)) || FAMILY_DEFAULT;
  if (production) {
    const weak = await weakPasswordReason(value, "");
    if (weak)
      throw badRequest(
        `account.initPassword: 初始密码过于简单(${weak}),请先在参数管理中为该租户设置一个强密码`,
      );
  }
  return value;
}
