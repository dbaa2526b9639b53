import type { attentionOut } from "./attention.ts";
import type { MoneySheet } from "./money-sheet.ts";

type Row = ReturnType<typeof attentionOut>;

const ENERGY = { 1: "电表", 2: "水表" } as Record<number, string>;
const LEVEL = { 0: "正常", 1: "余额不足", 2: "余额严重不足", 3: "欠费" } as Record<number, string>;
const SUPPLY = { 0: "合闸", 1: "拉闸" } as Record<number, string>;
const days = (n: number | null) => (n === null ? "" : n);

/** The attention list as a sheet: what a caller needs to phone or visit each owner. */
export function attentionSheet(listed: {
  count: number;
  rows: (limit: number, offset: number) => Promise<Row[]>;
}): MoneySheet<Row> {
  return {
    title: "待关注账户",
    count: listed.count,
    rows: listed.rows,
    columns: [
      { header: "房间", value: (r) => r.roomName, width: 22 },
      { header: "业主", value: (r) => r.ownerName },
      { header: "手机号码", value: (r) => r.phone, width: 16 },
      { header: "类型", value: (r) => ENERGY[r.energyType] ?? "", width: 8 },
      { header: "表号", value: (r) => r.productCode, width: 18 },
      { header: "余额(元)", value: (r) => r.balance, money: true },
      { header: "告警等级", value: (r) => LEVEL[r.alarmLevel] ?? "" },
      { header: "近日日均电费(元)", value: (r) => r.dailyCharge, money: true, width: 18 },
      { header: "预计用完(天)", value: (r) => days(r.daysUntilEmpty) },
      { header: "预计断电(天)", value: (r) => days(r.daysUntilCut) },
      { header: "通断状态", value: (r) => (r.switchStatus === null ? "" : (SUPPLY[r.switchStatus] ?? "")) },
    ],
  };
}
