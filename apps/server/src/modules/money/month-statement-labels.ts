import type { MonthStatementTotals } from "./month-statement.ts";

/** How a sheet or a PDF names each part of usage, in Chinese (the console translates its own). */
export function partLabel(part: string): string {
  const tier = /^tier(\d+)$/.exec(part);
  if (tier) return `第${tier[1]}档`;
  return (
    {
      tip: "尖",
      peak: "峰",
      peace: "平",
      low: "谷",
      flat: "单一价",
      meter: "表内计费",
      unsplit: "未分档",
      total: "小计",
    }[part] ?? part
  );
}

export const energyLabel = (type: number) => (type === 2 ? "水" : "电");
export const unitOf = (type: number) => (type === 2 ? "m³" : "kWh");

export const SCOPE_LABEL: Record<string, string> = {
  account: "账户",
  owner: "业主",
  room: "房间",
  building: "楼栋",
  site: "全站",
};

/**
 * The statement's summary as lines of a table (what, usage, yuan), in the order a reader checks
 * it: opening, money in, money out, usage by tier and band, fees, closing.
 */
export function summaryLines(t: MonthStatementTotals): { label: string; usage: string; amount: string }[] {
  const line = (label: string, amount: string, usage = "") => ({ label, usage, amount });
  return [
    line("期初余额", t.openingBalance),
    line("开户预存", t.deposit),
    line("充值", t.recharge),
    line("退费", t.refund),
    line("冲正(净额)", t.correction),
    line("用量冲正", t.usageCorrection),
    ...t.usage.map((u) =>
      line(
        `${energyLabel(u.energyType)}费 ${partLabel(u.part)} (${unitOf(u.energyType)})`,
        u.charge,
        u.usage,
      ),
    ),
    line("月固定费", t.fee),
    line("公摊", t.apportion),
    line("期末余额", t.closingBalance),
  ];
}
