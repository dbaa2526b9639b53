/**
 * The columns of the registry import sheet, in template order. Headers are what operators see and
 * what reasons name; keys are what the rules read. `text` columns hold codes whose leading zeros
 * matter, so the template formats them as text.
 */
export const IMPORT_COLUMNS = [
  { key: "areaPath", header: "区域路径", width: 28, text: false, example: "阳光园区/1号楼/3单元" },
  { key: "roomName", header: "房间名称", width: 12, text: true, example: "301" },
  { key: "roomCode", header: "房间编码", width: 14, text: true, example: "YG-1-3-301" },
  { key: "roomType", header: "房间类型", width: 10, text: false, example: "住宅" },
  { key: "floorArea", header: "面积", width: 10, text: false, example: "89.50" },
  { key: "ownerName", header: "业主姓名", width: 12, text: false, example: "张三" },
  { key: "ownerCode", header: "业主编号", width: 14, text: true, example: "YZ0001" },
  { key: "phone", header: "手机号码", width: 14, text: true, example: "13800000000" },
  { key: "idCard", header: "身份证号", width: 22, text: true, example: "" },
  { key: "meterCode", header: "电表表号", width: 16, text: true, example: "000000000001" },
  { key: "waterCode", header: "水表表号", width: 18, text: true, example: "00000000000001" },
  { key: "collectorCode", header: "采集器注册码", width: 16, text: true, example: "" },
  { key: "channel", header: "通道号", width: 8, text: false, example: "1" },
  { key: "chargingScheme", header: "收费方案", width: 20, text: false, example: "" },
  { key: "alarmScheme", header: "告警方案", width: 20, text: false, example: "" },
  // Only electric meters have a control mode: a water meter's balance is always the server's.
  { key: "controlMode", header: "电表控制方式", width: 14, text: false, example: "远程控制" },
  { key: "meterInitial", header: "电表初始读数", width: 14, text: false, example: "0.00" },
  { key: "waterInitial", header: "水表初始读数", width: 14, text: false, example: "" },
  // DL/T 645-2007, 645-1997 or 698.45 by the meter_protocol dictionary's label; blank keeps the default.
  { key: "meterProtocol", header: "电表规约", width: 16, text: false, example: "DL/T 645-2007" },
  // Modbus-RTU meters only: the catalogue model (key such as sdm120, or its label) and the slave address.
  { key: "modbusModel", header: "Modbus型号", width: 16, text: false, example: "" },
  { key: "modbusSlave", header: "Modbus从站地址", width: 14, text: false, example: "" },
] as const;

export type ColumnKey = (typeof IMPORT_COLUMNS)[number]["key"];
/** One data row as text, blank cells as "". */
export type RowText = Record<ColumnKey, string>;

/** A sheet without these columns is not a registry sheet at all: refused as a whole. */
export const REQUIRED_COLUMNS: readonly ColumnKey[] = ["areaPath", "roomName"];

export const MAX_IMPORT_ROWS = 10_000;
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Deepest area path accepted: park, building, unit, floor and a few more levels to spare. */
export const MAX_AREA_DEPTH = 8;
/** The preview lists this many problems; the rejected sheet of an import holds all of them. */
export const MAX_PREVIEW_PROBLEMS = 200;

const headers = new Map<string, string>(IMPORT_COLUMNS.map((c) => [c.key, c.header]));
export const headerOf = (key: ColumnKey): string => headers.get(key)!;
