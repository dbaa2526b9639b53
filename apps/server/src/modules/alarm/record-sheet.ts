import type { Queryable } from "../../db/client.ts";
import type { MoneySheet } from "../money/money-sheet.ts";

/** What a line of the 告警记录 sheet reads of a record, as the screen's page answers it. */
export interface RecordLine {
  productCode: string;
  energyType: number;
  roomName?: string;
  checkRuleName: string;
  alarmLevel: number;
  alarmStatus: number;
  ignored: boolean;
  content: string;
  createTime: string | null;
  lastCheckTime: string | null;
  restoreTime: string | null;
  closeTime: string | null;
}

/** The Chinese labels of ALARM_LEVEL and ALARM_STATUS by key, as the tenant's dictionary names them. */
export interface AlarmLabels {
  level: Map<string, string>;
  status: Map<string, string>;
}

export async function alarmLabels(db: Queryable, tenantId: string): Promise<AlarmLabels> {
  const rows = await db.query<{ code: string; dict_key: string; dict_value: string }>(
    `select code, dict_key, dict_value from sys_dict_biz
      where tenant_id = $1 and code in ('ALARM_LEVEL', 'ALARM_STATUS') and parent_id <> 0 and is_deleted = 0`,
    [tenantId],
  );
  const of = (code: string) =>
    new Map(rows.filter((r) => r.code === code).map((r) => [r.dict_key, r.dict_value]));
  return { level: of("ALARM_LEVEL"), status: of("ALARM_STATUS") };
}

const ENERGY = ["", "电", "水"];

/**
 * The 告警记录 sheet's title and columns: what the screen shows, in Chinese for the people who read
 * it. A meter check carries level 0, which says nothing about it: its cell stays empty. A key the
 * dictionary lost is written as it is.
 */
export function recordSheet(labels: AlarmLabels): Pick<MoneySheet<RecordLine>, "title" | "columns"> {
  return {
    title: "告警记录",
    columns: [
      { header: "表号", value: (r) => r.productCode, width: 18 },
      { header: "能源类型", value: (r) => ENERGY[r.energyType] ?? String(r.energyType), width: 10 },
      { header: "房间", value: (r) => r.roomName ?? "", width: 18 },
      { header: "告警规则", value: (r) => r.checkRuleName, width: 16 },
      {
        header: "告警等级",
        value: (r) =>
          r.alarmLevel === 0 ? "" : (labels.level.get(String(r.alarmLevel)) ?? String(r.alarmLevel)),
      },
      {
        header: "状态",
        value: (r) => {
          const state = labels.status.get(String(r.alarmStatus)) ?? String(r.alarmStatus);
          return r.ignored ? `${state}(已忽略)` : state;
        },
      },
      { header: "告警内容", value: (r) => r.content, width: 24 },
      { header: "告警时间", value: (r) => r.createTime, width: 20 },
      { header: "最近检测", value: (r) => r.lastCheckTime, width: 20 },
      { header: "结束时间", value: (r) => r.restoreTime ?? r.closeTime, width: 20 },
    ],
  };
}
