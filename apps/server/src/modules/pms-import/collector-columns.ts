import type { TopologyColumn } from "./topology-columns.ts";

/**
 * The columns of the registry import's 采集器 sheet: DTUs and Q/GDW 1376.1 concentrators made
 * before the room rows that bind meters to them. A column is found by its template header or an
 * alias (the collector form's labels and their English), as the topology sheets are.
 */
export const COLLECTOR_COLUMNS = [
  {
    key: "collectorCode",
    header: "采集器注册码",
    aliases: ["注册码", "Collector code", "Registration code"],
    width: 16,
    text: true,
  },
  { key: "collectorName", header: "采集器名称", aliases: ["Collector name"], width: 20, text: false },
  { key: "collectorType", header: "采集器类型", aliases: ["Collector type"], width: 12, text: false },
  { key: "terminalAddress", header: "终端地址", aliases: ["Terminal address"], width: 14, text: true },
  {
    key: "secret",
    header: "接入密钥",
    aliases: ["密码", "通信密钥", "终端密码", "Registration secret", "Password"],
    width: 36,
    text: true,
  },
  { key: "remark", header: "备注", aliases: ["Remark"], width: 24, text: false },
  // A Modbus TCP endpoint the gateway dials (host:port, e.g. 192.168.1.20:502): the collector's
  // transport is then Modbus TCP 直连.
  {
    key: "modbusEndpoint",
    header: "Modbus TCP 地址",
    aliases: ["Modbus TCP address", "Modbus TCP endpoint"],
    width: 22,
    text: true,
  },
] as const satisfies readonly TopologyColumn<string>[];

export type CollectorKey = (typeof COLLECTOR_COLUMNS)[number]["key"];

export const COLLECTOR_SHEET = "采集器";

export const collectorColumn = (key: CollectorKey) => COLLECTOR_COLUMNS.find((c) => c.key === key)!;
export const collectorHeader = (key: CollectorKey) => collectorColumn(key).header;

/**
 * A sheet is the collector sheet when it holds the code and any other collector column. The room
 * sheet holds 采集器注册码 too but none of the others, so it is never taken for this one.
 */
export const COLLECTOR_SHEET_HEADERS = [
  [collectorColumn("collectorCode").header, ...collectorColumn("collectorCode").aliases],
  (["collectorName", "collectorType", "terminalAddress", "secret", "modbusEndpoint"] as const).flatMap(
    (key) => [collectorColumn(key).header, ...collectorColumn(key).aliases],
  ),
];
