import { resources } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import { columnByName } from "../../crud/columns.ts";
import { assertDictionaryValues } from "../../crud/dictionary-check.ts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import type { UserService } from "./user.service.ts";

const userType = columnByName(resources.user, "userType")!;
const EXT_LIMIT = resources.user.fields.userExt.maxLength;

export interface PlatformDetail {
  id: string;
  account: string;
  realName: string;
  userType: number;
  userExt: string;
}

/** A user's platform (user type) and its settings, for the platform dialog of the user screen. */
export async function platformDetail(
  db: Queryable,
  users: UserService,
  caller: CurrentUser,
  id: string,
): Promise<PlatformDetail> {
  await users.visible(caller, [id]);
  const [row] = await db.query<PlatformDetail>(
    `select id::text as "id", account as "account", real_name as "realName",
            user_type as "userType", coalesce(user_ext, '') as "userExt"
       from sys_user where id = $1`,
    [id],
  );
  return row!;
}

/** The settings must be a JSON object so that each platform's keys can be read back reliably. */
export function parseUserExt(raw: unknown): string {
  if (raw === undefined || raw === null || raw === "") return "";
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  if (text.length > EXT_LIMIT) throw badRequest(`userExt: 长度不能超过${EXT_LIMIT}个字符`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("userExt: 必须是合法的 JSON 对象");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw badRequest("userExt: 必须是合法的 JSON 对象");
  return text;
}

/** Moves a user to another platform type and stores its settings there. */
export async function updatePlatform(
  db: Queryable,
  users: UserService,
  caller: CurrentUser,
  change: { userId: string; userType: string; userExt: string },
): Promise<void> {
  const [target] = await users.visible(caller, [change.userId]);
  if (!/^\d{1,9}$/.test(change.userType)) throw badRequest("userType: 请选择用户平台");
  await assertDictionaryValues(db, new Map([[userType, Number(change.userType)]]), target!.tenant_id);
  await db.query(
    "update sys_user set user_type = $2, user_ext = $3, update_user = $4, update_time = now() where id = $1",
    [change.userId, Number(change.userType), change.userExt || null, caller.userId],
  );
}
