import { BillingInputError, fenToYuan, yuanToFen } from "@meterline/billing";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { WARN_DAYS_KEY, warnDaysOf } from "../forecast-warnings/forecast-warnings.service.ts";
import { MAX_WARN_DAYS } from "../forecast-warnings/warning-rules.ts";
import { PLATFORM_TENANT, paramValue } from "../param/param-values.ts";
import { approverRole, ROLE_KEY, THRESHOLD_KEY } from "./money-approval.ts";
import { MAX_AMOUNT_FEN } from "./recharge-input.ts";

/**
 * A tenant's money policy (资金审批设置): the amount above which money leaving an account waits for
 * a second person, and the role whose holders approve. Kept as the tenant's own rows of the two
 * tenant-level parameters, so the platform's values stay the defaults of tenants that set nothing.
 * An empty threshold stored by the tenant means no approval for that tenant, whatever the default.
 */
export interface MoneyPolicy {
  /** Yuan with 2 decimals; "" when the tenant approves nothing. */
  threshold: string;
  approverRole: string;
  /** True when the tenant set its own policy; false while the platform's defaults apply. */
  own: boolean;
  defaults: { threshold: string; approverRole: string };
  /** The tenant's roles, for the approver's choice. */
  roles: { roleAlias: string; roleName: string }[];
  /**
   * Owner warnings before the forecast cut: days ahead the owner is texted and the owner page
   * warns (0: off), whether the tenant set its own, and the platform's default.
   */
  warnDays: number;
  warnDaysOwn: boolean;
  warnDaysDefault: number;
}

const NAMES: Record<string, { name: string; remark: string }> = {
  [THRESHOLD_KEY]: {
    name: "退款/冲减审批金额",
    remark: "退款或冲正(减)金额超过该值(元)时需他人审批后入账,留空为不审批",
  },
  [ROLE_KEY]: { name: "退款/冲减审批角色", remark: "审批退款与冲正(减)的角色别名,申请人本人除外" },
  [WARN_DAYS_KEY]: {
    name: "余额用尽预警天数",
    remark: "预计余额在该天数内用尽时短信提醒业主并在业主页显示,0或留空为不提醒",
  },
};

/** A stored threshold as the screen shows it: yuan with 2 decimals, "" for none. */
function shownThreshold(text: string | undefined): string {
  const trimmed = text?.trim() ?? "";
  if (!trimmed) return "";
  try {
    return fenToYuan(yuanToFen(trimmed, THRESHOLD_KEY));
  } catch {
    return trimmed;
  }
}

export async function readPolicy(db: Queryable, tenantId: string): Promise<MoneyPolicy> {
  const own = await db.query<{ param_key: string }>(
    "select param_key from sys_param where tenant_id = $1 and param_key = any($2::varchar[]) and is_deleted = 0",
    [tenantId, [THRESHOLD_KEY, ROLE_KEY, WARN_DAYS_KEY]],
  );
  const ownKeys = new Set(own.map((row) => row.param_key));
  const roles = await db.query<{ role_alias: string; role_name: string }>(
    `select distinct on (role_alias) role_alias, role_name from sys_role
      where tenant_id = $1 and is_deleted = 0 and coalesce(role_alias, '') <> ''
      order by role_alias, sort nulls last, id`,
    [tenantId],
  );
  return {
    threshold: shownThreshold(await paramValue(db, THRESHOLD_KEY, tenantId)),
    approverRole: await approverRole(db, tenantId),
    own: ownKeys.has(THRESHOLD_KEY) || ownKeys.has(ROLE_KEY),
    defaults: {
      threshold: shownThreshold(await paramValue(db, THRESHOLD_KEY, PLATFORM_TENANT)),
      approverRole: (await paramValue(db, ROLE_KEY, PLATFORM_TENANT))?.trim() || "admin",
    },
    roles: roles.map((r) => ({ roleAlias: r.role_alias, roleName: r.role_name })),
    warnDays: await warnDaysOf(db, tenantId),
    warnDaysOwn: ownKeys.has(WARN_DAYS_KEY),
    warnDaysDefault: await warnDaysOf(db, PLATFORM_TENANT),
  };
}

/** The warning days as typed: "" or 0 turns warnings off; else whole days up to MAX_WARN_DAYS. */
export function warnDaysInput(value: unknown): number {
  if (value === undefined || value === null) throw badRequest("warnDays: 请输入预警天数,0 或留空为不提醒");
  const text =
    typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
  if (text === undefined) throw badRequest("warnDays: 应为天数或留空");
  if (text === "") return 0;
  if (!/^\d{1,3}$/.test(text)) throw badRequest("warnDays: 天数应为 0 或正整数");
  const days = Number(text);
  if (days > MAX_WARN_DAYS) throw badRequest(`warnDays: 天数不能超过 ${MAX_WARN_DAYS}`);
  return days;
}

/** The threshold as typed: "" clears it; else an amount in yuan (0 holds every such operation). */
export function thresholdOf(value: unknown): string {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (value !== undefined && value !== null && typeof value !== "string" && typeof value !== "number")
    throw badRequest("threshold: 应为金额或留空");
  if (text === "") return "";
  let fen: bigint;
  try {
    fen = yuanToFen(text, "threshold");
  } catch (error) {
    if (error instanceof BillingInputError) throw badRequest("threshold: 金额应为最多2位小数的数字");
    throw error;
  }
  if (fen < 0n) throw badRequest("threshold: 金额不能小于 0");
  if (fen > MAX_AMOUNT_FEN) throw badRequest("threshold: 金额不能超过 1000000 元");
  return fenToYuan(fen);
}

/**
 * Stores the tenant's policy as its own parameter rows (written, not merged: what the screen
 * shows is what applies). The approver role must be one of the tenant's roles.
 */
export async function savePolicy(
  tx: Queryable,
  caller: CurrentUser,
  tenantId: string,
  input: { threshold: string; approverRole: string },
): Promise<void> {
  const role = input.approverRole.trim();
  if (!role) throw badRequest("approverRole: 请选择审批角色");
  const [known] = await tx.query(
    "select 1 from sys_role where tenant_id = $1 and role_alias = $2 and is_deleted = 0 limit 1",
    [tenantId, role],
  );
  if (!known) throw badRequest(`approverRole: 角色 [${role.slice(0, 64)}] 不存在`);
  for (const [key, value] of [
    [THRESHOLD_KEY, input.threshold],
    [ROLE_KEY, role],
  ] as const)
    await writeParam(tx, caller, tenantId, key, value);
}

/** Stores the tenant's warning days (0 is stored as such: off for this tenant, whatever the default). */
export async function saveWarnDays(tx: Queryable, caller: CurrentUser, tenantId: string, days: number) {
  await writeParam(tx, caller, tenantId, WARN_DAYS_KEY, String(days));
}

/** The tenant's own row of a tenant-level parameter, updated or created. */
async function writeParam(tx: Queryable, caller: CurrentUser, tenantId: string, key: string, value: string) {
  const updated = await tx.query(
    `update sys_param set param_value = $3, update_user = $4, update_time = now()
      where tenant_id = $1 and param_key = $2 and is_deleted = 0 returning id`,
    [tenantId, key, value, caller.userId || null],
  );
  if (updated.length === 0)
    await tx.query(
      `insert into sys_param (id, tenant_id, platform_wide, param_name, param_key, param_value, remark,
                              create_user, update_user)
       values ($1, $2, 0, $3, $4, $5, $6, $7, $7)`,
      [nextId(), tenantId, NAMES[key]!.name, key, value, NAMES[key]!.remark, caller.userId || null],
    );
}
