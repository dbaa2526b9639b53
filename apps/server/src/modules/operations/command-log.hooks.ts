import { formatDateTime } from "../../contract/dates.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";
import { expectedWakeSql } from "../iot-platform/platform-commands.db.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { commandReason } from "./command-reason.ts";
import { COMMAND_WORDS_COLUMNS, commandWordsJoins, dictJoin } from "./command-words.ts";

interface Words {
  id: string;
  action_name: string | null;
  action_name_en: string | null;
  why_name: string | null;
  why_name_en: string | null;
  source_name: string | null;
  source_name_en: string | null;
  operator_name: string | null;
  room_name: string | null;
  platform_state: string | null;
  expected_wake: Date | null;
}

/**
 * The command log in words (and its room) (spec §7 metercommand): each row gets its action, the screen it came
 * from and the operator by name, joined in one query for the page, and the reason of its state in
 * both languages. A command without a user was queued by the server itself (arrears cuts): the
 * console shows it as the system's.
 */
export const commandWordsHooks: Pick<ResourceHooks, "decorate"> = {
  async decorate({ db }, rows) {
    if (rows.length === 0) return;
    const words = await db.query<Words>(
      `select c.id::text as id, ${COMMAND_WORDS_COLUMNS},
              s.dict_value as source_name, s.dict_value_en as source_name_en,
              coalesce(nullif(u.real_name, ''), u.name) as operator_name,
              (select ${roomLabelSql("r")} from pms_room_meter rm
                 join pms_room r on r.tenant_id = rm.tenant_id and r.id = rm.room_id
                where rm.tenant_id = c.tenant_id and rm.meter_id = c.meter_id
                  and rm.energy_type = c.energy_type and rm.is_deleted = 0
                order by rm.id desc limit 1) as room_name,
              c.platform_state, ${expectedWakeSql("c")} as expected_wake
         from pms_meter_command c
         ${commandWordsJoins("c")}
         ${dictJoin("s", "command_source", "c.source")}
         left join sys_user u on u.id = c.create_user
        where c.id = any($1::bigint[]) and c.tenant_id = any($2::text[])`,
      [rows.map((row) => String(row.id)), [...new Set(rows.map((row) => String(row.tenantId)))]],
    );
    const byId = new Map(words.map((w) => [w.id, w]));
    for (const row of rows) {
      const named = byId.get(String(row.id));
      row.actionName = named?.action_name ?? "";
      row.actionNameEn = named?.action_name_en ?? "";
      // Why it was sent (手动, 欠费自动断电, 充值恢复 …): the console reads "拉闸 · 欠费自动断电".
      row.whyName = named?.why_name ?? "";
      row.whyNameEn = named?.why_name_en ?? "";
      row.sourceName = named?.source_name ?? String(row.source ?? "");
      row.sourceNameEn = named?.source_name_en ?? String(row.source ?? "");
      row.operatorName = named?.operator_name ?? "";
      // Where the meter is installed now ("2号楼 305"): operators know meters by their rooms.
      row.roomName = named?.room_name ?? "";
      const reason = commandReason(row.evidence);
      row.reasonName = reason.zh;
      row.reasonNameEn = reason.en;
      // An NB-IoT meter's command: its state at the platform and, while it waits, the meter's next wake.
      row.platformState = named?.platform_state ?? null;
      row.expectedWake = named?.expected_wake ? formatDateTime(named.expected_wake) : null;
    }
  },
};
