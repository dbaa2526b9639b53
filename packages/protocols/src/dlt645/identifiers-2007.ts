import { byteHex } from "../hex.ts";
import {
  block,
  type DataItem,
  num,
  PHASE_LABELS,
  single,
  TARIFF_LABELS,
  TOTAL_PHASE_LABELS,
} from "./data-item.ts";
import { touTableItem } from "./tou-tables.ts";

/**
 * DL/T 645-2007 data identifiers a prepaid system needs (metering-domain.md §1.5, §1.7).
 * A DI is DI3 DI2 DI1 DI0 in display order; families that vary in one byte (tariff, phase,
 * "n-th last day") are matched by pattern so e.g. 00010300 and 05060105 need no own row.
 */
const ENERGY = num(4, 2, "kWh");
const MONEY = num(4, 2, "yuan");
const PRICE = num(4, 4, "yuan/kWh");

const ENERGY_KINDS: Record<string, [string, string, boolean]> = {
  "00": ["combined active energy", "组合有功电能", true], // signed per the standard
  "01": ["forward active energy", "正向有功电能", false],
  "02": ["reverse active energy", "反向有功电能", false],
};

const EXACT: DataItem[] = [
  single("02800002", "grid frequency", "电网频率", num(2, 2, "Hz")),
  single("02800020", "current electricity price", "当前电价", PRICE),
  single("04000101", "date and weekday", "日期及星期", { kind: "datetime", layout: "YYMMDDWW" }),
  single("04000102", "time", "时间", { kind: "datetime", layout: "hhmmss" }),
  single("04000108", "price set switch-over time", "两套费率电价切换时间", {
    kind: "datetime",
    layout: "YYMMDDhhmm",
  }),
  single("04000106", "year zone table switch-over time", "两套时区表切换时间", {
    kind: "datetime",
    layout: "YYMMDDhhmm",
  }),
  single("04000107", "day table switch-over time", "两套日时段表切换时间", {
    kind: "datetime",
    layout: "YYMMDDhhmm",
  }),
  // Time-of-use table sizes (tou-tables.ts).
  single("04000201", "number of year zones", "年时区数", num(1, 0, "count")),
  single("04000202", "number of day tables", "日时段表数", num(1, 0, "count")),
  single("04000203", "number of periods per day", "日时段数", num(1, 0, "count")),
  single("04000204", "number of tariffs", "费率数", num(1, 0, "count")),
  single("04000205", "number of public holidays", "公共假日数", num(2, 0, "count")),
  single("04000401", "communication address", "通信地址", { kind: "digits", bytes: 6 }),
  single("04000402", "meter number", "表号", { kind: "digits", bytes: 6 }),
  single("04000501", "meter run status word 1", "电表运行状态字1", { kind: "word", bytes: 2 }),
  single("04000502", "meter run status word 2", "电表运行状态字2", { kind: "word", bytes: 2 }),
  single("04000503", "meter run status word 3", "电表运行状态字3", { kind: "word", bytes: 2 }),
  single("00900100", "remaining energy", "剩余电量", ENERGY),
  single("00900101", "overdraft energy", "透支电量", ENERGY),
  single("00900200", "balance", "剩余金额", MONEY),
  single("00900201", "overdraft amount", "透支金额", MONEY),
  single("04001001", "alarm amount 1 limit", "报警金额1限值", MONEY),
  single("04001002", "alarm amount 2 limit", "报警金额2限值", MONEY),
  single("04001003", "overdraft amount limit", "透支金额限值", MONEY),
  single("04001004", "hoarding amount limit", "囤积金额限值", MONEY),
  single("04001005", "close-allowed amount limit", "合闸允许金额限值", MONEY),
  single("04000F01", "alarm energy 1 limit", "报警电量1限值", ENERGY),
  single("04000F02", "alarm energy 2 limit", "报警电量2限值", ENERGY),
  single("04000F03", "hoarding energy limit", "囤积电量限值", ENERGY),
  single("04000F04", "overdraft energy limit", "透支电量限值", ENERGY),
  // Vendor convention (0400Fxxx, like the money writes): how the ladder's usage accumulates,
  // 1 per calendar month, 2 per calendar year (the 2013 amendment's yearly settlement dates, reduced).
  single("0400F010", "ladder cycle (vendor convention)", "阶梯结算周期", num(1, 0, "count")),
  single("1D000001", "trip event count", "跳闸总次数", num(3, 0, "count")),
  single("1E000001", "close event count", "合闸总次数", num(3, 0, "count")),
  // Event records (0330xxxx): how many times the meter cover was opened, counted by the meter itself.
  single("03300D00", "cover-open event count", "开表盖总次数", num(3, 0, "count")),
];
const EXACT_MAP = new Map(EXACT.map((item) => [item.di, item]));

const nth = (n: number) => (n === 1 ? "last" : `${n}th last`);

type Pattern = (b: [number, number, number, number]) => DataItem | undefined;

const PATTERNS: Pattern[] = [
  // 04 0s 00 nn: year zone table (nn 00) and day tables (nn 01..08) of set s (tou-tables.ts).
  (b) => touTableItem(b.map(byteHex).join("")),
  // 00 kk tt pp: energy kind kk, tariff tt (00 total, 01..3F, FF block), pp 00 current / 01..0C settlement n.
  ([d3, d2, d1, d0]) => {
    const kind = ENERGY_KINDS[byteHex(d2)];
    if (d3 !== 0x00 || !kind || d0 > 0x0c || (d1 > 0x3f && d1 !== 0xff)) return undefined;
    const [name, zh, signed] = kind;
    const format = num(4, 2, "kWh", signed);
    const when = d0 === 0 ? "" : ` (settlement ${d0})`;
    const di = [d3, d2, d1, d0].map(byteHex).join("");
    if (d1 === 0xff) return block(di, `${name} block${when}`, `${zh}数据块`, format, TARIFF_LABELS);
    return single(di, `${name} ${d1 === 0 ? "total" : `tariff ${d1}`}${when}`, zh, format);
  },
  // 02 0k 0p 00: instantaneous variables per phase (p = 1..3, FF block; power also p = 0 total).
  ([d3, d2, d1, d0]) => {
    if (d3 !== 0x02 || d0 !== 0x00 || d2 < 0x01 || d2 > 0x06) return undefined;
    const rows: Record<number, [string, string, ReturnType<typeof num>, boolean]> = {
      1: ["voltage", "电压", num(2, 1, "V"), false],
      2: ["current", "电流", num(3, 3, "A", true), false],
      3: ["active power", "有功功率", num(3, 4, "kW", true), true],
      4: ["reactive power", "无功功率", num(3, 4, "kvar", true), true],
      5: ["apparent power", "视在功率", num(3, 4, "kVA", true), true],
      6: ["power factor", "功率因数", num(2, 3, "", true), true],
    };
    const [name, zh, format, hasTotal] = rows[d2]!;
    const di = `020${d2}${byteHex(d1)}00`;
    if (d1 === 0xff)
      return block(di, `${name} block`, `${zh}数据块`, format, hasTotal ? TOTAL_PHASE_LABELS : PHASE_LABELS);
    if (d1 > 3 || (d1 === 0 && !hasTotal)) return undefined;
    return single(di, `${name} ${d1 === 0 ? "total" : PHASE_LABELS[d1 - 1]}`, zh, format);
  },
  // 05 06 kk nn: daily freeze n days back (nn = 01..3E): 00 time, 01 forward, 02 reverse energy.
  ([d3, d2, d1, d0]) => {
    if (d3 !== 0x05 || d2 !== 0x06 || d0 < 1 || d0 > 0x3e || d1 > 2) return undefined;
    const di = `0506${byteHex(d1)}${byteHex(d0)}`;
    if (d1 === 0)
      return single(di, `${nth(d0)} daily freeze time`, "日冻结时间", {
        kind: "datetime",
        layout: "YYMMDDhhmm",
      });
    const kind = d1 === 1 ? "forward" : "reverse";
    return block(
      di,
      `${nth(d0)} daily frozen ${kind} active energy`,
      "日冻结有功电能",
      num(4, 2, "kWh"),
      TARIFF_LABELS,
    );
  },
  // 03 3k 0f nn: purchase records, k 2 energy-type / 3 money-type, f 2 count / 6 cumulative.
  ([d3, d2, d1, d0]) => {
    if (d3 !== 0x03 || (d2 !== 0x32 && d2 !== 0x33) || (d1 !== 0x02 && d1 !== 0x06) || d0 < 1 || d0 > 0x0a)
      return undefined;
    const money = d2 === 0x33;
    const di = `03${byteHex(d2)}${byteHex(d1)}${byteHex(d0)}`;
    if (d1 === 0x02)
      return single(di, `purchase count after ${nth(d0)} purchase`, "购电后总购电次数", num(2, 0, "count"));
    return single(
      di,
      `cumulative purchased ${money ? "amount" : "energy"} after ${nth(d0)} purchase`,
      money ? "累计购电金额" : "累计购电量",
      money ? MONEY : ENERGY,
    );
  },
  // 1D/1E 00 01 nn: time of the n-th last trip / close; the record goes on with operator and energies.
  ([d3, d2, d1, d0]) => {
    if ((d3 !== 0x1d && d3 !== 0x1e) || d2 !== 0 || d1 !== 1 || d0 < 1 || d0 > 0x0a) return undefined;
    const trip = d3 === 0x1d;
    return {
      di: `${byteHex(d3)}0001${byteHex(d0)}`,
      name: `${nth(d0)} ${trip ? "trip" : "close"} record`,
      zh: trip ? "跳闸记录" : "合闸记录",
      fields: [{ name: "time", format: { kind: "datetime", layout: "YYMMDDhhmmss" } }],
      openEnded: true,
    };
  },
  // 04 05 0s nn: tariff price nn of price set s (s = 1, 2); FF = all prices of the set.
  ([d3, d2, d1, d0]) => {
    if (d3 !== 0x04 || d2 !== 0x05 || (d1 !== 1 && d1 !== 2) || d0 === 0 || (d0 > 0x3f && d0 !== 0xff))
      return undefined;
    const di = `04050${d1}${byteHex(d0)}`;
    const set = d1 === 1 ? "first" : "second";
    if (d0 === 0xff) return block(di, `${set} set tariff prices`, "费率电价", PRICE, TARIFF_LABELS.slice(1));
    return single(di, `${set} set tariff ${d0} price`, `第${d1 === 1 ? "一" : "二"}套费率电价${d0}`, PRICE);
  },
  // 04 06 kk nn: ladder (阶梯) tables, one value per DI so each fits a plain write (L ≤ 50):
  // kk 00 / 02 step threshold nn (1..14, kWh per cycle) of the first / second set,
  // kk 01 / 03 step price nn (1..15, the price above threshold nn−1) of the first / second set.
  // The 2009 layout as the index shows it ("第一套阶梯值1~14", metering-domain.md §1.5); the 2013
  // amendment's block form (6 steps, 7 prices, 4 yearly dates in one DI) is not modelled.
  ([d3, d2, d1, d0]) => {
    if (d3 !== 0x04 || d2 !== 0x06 || d1 > 3 || d0 === 0 || d0 > (d1 % 2 === 0 ? 14 : 15)) return undefined;
    const di = `04060${d1}${byteHex(d0)}`;
    const set = d1 < 2 ? "first" : "second";
    const setZh = d1 < 2 ? "一" : "二";
    if (d1 % 2 === 0)
      return single(di, `${set} set ladder threshold ${d0}`, `第${setZh}套阶梯值${d0}`, ENERGY);
    return single(di, `${set} set ladder price ${d0}`, `第${setZh}套阶梯电价${d0}`, PRICE);
  },
];

/** The table row for a 2007 DI ("00900200"), or undefined when the DI is not in the table. */
export function lookup2007(di: string): DataItem | undefined {
  const key = di.toUpperCase();
  const exact = EXACT_MAP.get(key);
  if (exact) return exact;
  if (!/^[0-9A-F]{8}$/.test(key)) return undefined;
  const b = [0, 2, 4, 6].map((i) => Number.parseInt(key.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
    number,
  ];
  for (const pattern of PATTERNS) {
    const item = pattern(b);
    if (item) return item;
  }
  return undefined;
}

/** Named DIs for builders and the CLI. */
export const DI = {
  COMBINED_ENERGY_TOTAL: "00000000",
  FORWARD_ENERGY_TOTAL: "00010000",
  FORWARD_ENERGY_BLOCK: "0001FF00",
  REVERSE_ENERGY_TOTAL: "00020000",
  VOLTAGE_A: "02010100",
  CURRENT_A: "02020100",
  ACTIVE_POWER_TOTAL: "02030000",
  DATE: "04000101",
  TIME: "04000102",
  ADDRESS: "04000401",
  STATUS_WORD_1: "04000501",
  STATUS_WORD_3: "04000503",
  COVER_OPEN_COUNT: "03300D00",
  BALANCE: "00900200",
  OVERDRAFT: "00900201",
  PURCHASE_COUNT: "03330201",
  ALARM_AMOUNT_1: "04001001",
  ALARM_AMOUNT_2: "04001002",
  OVERDRAFT_LIMIT: "04001003",
  TARIFF_PRICE_1: "04050101",
  LADDER_THRESHOLD_1: "04060001",
  LADDER_PRICE_1: "04060101",
  LADDER_CYCLE: "0400F010",
  DAILY_FROZEN_TIME: "05060001",
  DAILY_FROZEN_FORWARD: "05060101",
} as const;

/** Forward active energy DI of tariff n (0 = total). */
export function forwardEnergyDi(tariff: number): string {
  return `0001${byteHex(tariff)}00`;
}

/** Ladder step threshold n (1..14) of the first price set. */
export function ladderThresholdDi(step: number): string {
  return `040600${byteHex(step)}`;
}

/** Ladder step price n (1..15) of the first price set: price 1 below threshold 1, price n+1 above threshold n. */
export function ladderPriceDi(step: number): string {
  return `040601${byteHex(step)}`;
}
