import { badRequest } from "../../contract/errors.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";
import { type CommandKind, commandsOfKind } from "./command-kinds.ts";
import { commandWordsHooks } from "./command-log.hooks.ts";

/** States in which the gateway may still send the command or settle it. */
const UNSETTLED = ["queued", "sent"] as const;

/**
 * The rules every view of the command table shares (metercommand, message and the operation
 * records), so that nothing is lost:
 * - submit only edits the operator's remark of an existing command (`rowsCreatedByServer`): commands
 *   are created by the operations that send them (message/switch…, account opening, scheme writes);
 * - remove is for settled commands only (success, fail, timeout to be confirmed). It hides the row
 *   from every list and keeps it for audit, stamped with who removed it and when.
 */
const commandRules: ResourceHooks = {
  ...commandWordsHooks,
  async beforeRemove({ db, user }, ids) {
    const open = await db.query<{ id: string; product_code: string; state: string }>(
      `select id::text as id, product_code, state from pms_meter_command
        where id = any($1::bigint[]) and state = any($2::varchar[]) order by id`,
      [ids, UNSETTLED],
    );
    if (open.length > 0) {
      const named = open.map((c) => `${c.product_code}(${c.state === "queued" ? "排队中" : "已发送"})`);
      throw badRequest(`ids: 命令尚未结束,不能删除: ${named.join(", ")}`);
    }
    await db.query(
      `update pms_meter_command set remove_user = $2, remove_time = now()
        where id = any($1::bigint[]) and is_deleted = 0`,
      [ids, user.userId || null],
    );
  },
};

export const meterCommandHooks: ResourceHooks = commandRules;

/** An operation record: the command rules, limited to the commands of one kind. */
export const commandRecordHooks = (kind: CommandKind): ResourceHooks => ({
  ...commandRules,
  hiddenRows: commandsOfKind(kind),
});
