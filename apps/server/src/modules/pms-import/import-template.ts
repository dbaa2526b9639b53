import { loadExcel } from "../../xlsx/excel.ts";
import { COLLECTOR_COLUMNS, COLLECTOR_SHEET, type CollectorKey } from "./collector-columns.ts";
import { IMPORT_COLUMNS, MAX_AREA_DEPTH, MAX_IMPORT_ROWS } from "./import-columns.ts";
import {
  NODE_COLUMNS,
  NODE_METER_COLUMNS,
  NODE_METER_SHEET,
  NODE_SHEET,
  type NodeKey,
  type NodeMeterKey,
} from "./topology-columns.ts";

/** How each topology column is filled (the rules of topology-planner.ts). */
const TOPOLOGY_NOTES: Record<NodeKey | NodeMeterKey, string> = {
  nodeTitle: "必填, 不能包含 /; 同一上级节点下同名的节点视为已有节点, 直接使用(导入不修改已有节点)",
  parent:
    "根节点不填; 否则填上级节点名称, 名称不唯一时填从根节点起的路径, 如 1号变压器/1号楼; 行的先后不限, 互为上级的节点不能导入",
  energyType: "选填, 电或水; 不填时同上级节点, 根节点为电; 须与上级节点相同。节点下级表中选填, 须与节点相同",
  nodeKind: "选填, 供电点/变压器、楼栋、楼层/竖井、其他; 不填为楼栋",
  masterCode:
    "选填, 本租户已登记(或本文件房间档案页新建)的同能源类型表号; 一块表只能作一个节点的总表, 也不能同时是下级表",
  node: "必填, 节点名称或从根节点起的路径, 写法同上级节点",
  meterCode: "必填, 与节点同能源类型的表号; 一块表只能属于一个节点, 且不能是总表",
  meterRole: "选填, 分户表或公区表; 不填为分户表",
};

/** How each collector column is filled (the rules of collector-planner.ts). */
const COLLECTOR_NOTES: Record<CollectorKey, string> = {
  collectorCode:
    "DTU 等必填, 设备上报的注册码(最多 32 个字符, 各租户间不能重复); 集中器可不填, 即为终端地址; 本租户已有的采集器视为已有, 不作修改",
  collectorName: "选填, 不填时同注册码",
  collectorType: "选填, 不填为 DTU; 可选值见下方",
  terminalAddress:
    "集中器必填, 行政区划码 4 位 + 终端地址 4 位(十六进制), 如 3401-0102; 网关按此地址识别集中器; 其他类型不填",
  secret:
    "集中器必填, 即登录密码: 32 位十六进制数(16 字节)或 16 个字母、数字或 . _ ~ -; DTU 选填, 16-64 位; 加密保存, 未导入的行中不显示, 重新导入时须重新填写",
  modbusEndpoint:
    "Modbus TCP 直连时必填: 网关连接的电表或 Modbus TCP 网关的 主机:端口, 主机为 IP 地址或主机名, 如 192.168.1.20:502; 采集器的接入方式即为 Modbus TCP 直连; 其下电表的规约须为 Modbus TCP; DTU 和集中器不填",
  remark: "选填, 最多 255 个字符",
};

/** How each column is filled, shown on the template's second sheet (the rules of import-planner.ts). */
const NOTES: Record<(typeof IMPORT_COLUMNS)[number]["key"], string> = {
  areaPath: `必填。从园区起逐级填写, 用 / 分隔, 最多 ${MAX_AREA_DEPTH} 级; 不存在的层级自动创建(第 1 级园区, 第 2 级楼栋, 第 3 级单元, 第 4 级及以下楼层)`,
  roomName: "必填。同一区域下同名的房间视为已有房间, 直接使用",
  roomCode: "选填, 最多 32 个字符",
  roomType: "选填, 默认住宅; 可选值见下方",
  floorArea: "选填, 最多 2 位小数",
  ownerName: "填写业主信息时必填; 同一房间只能有一个业主",
  ownerCode: "选填; 填写时按编号匹配已有业主(姓名须一致), 不存在则新建; 不填时每行新建业主",
  phone: "选填, 11 位手机号",
  idCard: "选填, 18 位身份证号; 请保持文本格式",
  meterCode: "选填, 12 位数字; 已安装在其他房间的电表不能导入",
  waterCode: "选填, 14 位数字; 已安装在其他房间的水表不能导入",
  collectorCode: "选填, 须为本租户已登记的采集器, 或本文件采集器页新建的采集器",
  channel: "选填, 0-255, 默认 1",
  chargingScheme: "选填, 收费方案名称; 电表、水表各一个时用逗号分隔",
  alarmScheme: "选填, 告警方案名称; 电表、水表各一个时用逗号分隔",
  controlMode:
    "选填, 远程控制(余额记在平台)或本地预付费(余额在表内, 开户前须先抄到购电次数); 不填为远程控制; 只用于新建的电表",
  meterInitial:
    "选填, 电表安装时的总读数(kWh), 最多 2 位小数; 首次计费只计高于此读数的用量; 只用于新建的电表",
  waterInitial: "选填, 水表安装时的读数(m³), 最多 2 位小数; 首次计费只计高于此读数的用量; 只用于新建的水表",
  meterProtocol: "选填, 电表的通信规约, 可选值见下方; 不填为 DL/T 645-2007; 只用于新建的电表",
  modbusModel: "电表规约为 Modbus-RTU 或 Modbus TCP 时必填: 型号目录中的型号, 可选值见下方; 只用于新建的电表",
  modbusSlave:
    "电表规约为 Modbus-RTU 或 Modbus TCP 时必填: 电表在采集器总线上的从站地址 (Modbus TCP 为单元标识) 1-247; 只用于新建的电表",
};

/** The import template: the columns with an example row, code columns formatted as text, and notes. */
export async function importTemplate(
  roomTypes: readonly string[],
  choices: {
    meterProtocols?: readonly string[];
    collectorTypes?: readonly string[];
    modbusModels?: readonly string[];
  } = {},
): Promise<Buffer> {
  const book = new (await loadExcel()).Workbook();
  const sheet = book.addWorksheet("房间档案");
  sheet.columns = IMPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  IMPORT_COLUMNS.forEach((c, index) => {
    // Excel drops leading zeros of numbers and rounds long ones: keep codes as text.
    if (c.text) sheet.getColumn(index + 1).numFmt = "@";
  });
  sheet.addRow(Object.fromEntries(IMPORT_COLUMNS.map((c) => [c.key, c.example])));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: "frozen", ySplit: 1 }];

  const notes = book.addWorksheet("填写说明");
  notes.columns = [
    { header: "列", width: 16 },
    { header: "说明", width: 100 },
  ];
  for (const c of IMPORT_COLUMNS) notes.addRow([c.header, NOTES[c.key]]);
  notes.addRow([]);
  notes.addRow(["房间类型可选值", roomTypes.join("、")]);
  if (choices.meterProtocols?.length) notes.addRow(["电表规约可选值", choices.meterProtocols.join("、")]);
  if (choices.modbusModels?.length) notes.addRow(["Modbus型号可选值", choices.modbusModels.join("、")]);
  notes.addRow(["行数", `一次最多 ${MAX_IMPORT_ROWS} 行; 有问题的行不导入, 结果中可下载这些行及原因`]);
  notes.addRow([]);
  for (const [sheetName, columns] of [
    [NODE_SHEET, NODE_COLUMNS],
    [NODE_METER_SHEET, NODE_METER_COLUMNS],
    [COLLECTOR_SHEET, COLLECTOR_COLUMNS],
  ] as const) {
    const sheet = book.addWorksheet(sheetName);
    sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
    columns.forEach((c, index) => {
      if (c.text) sheet.getColumn(index + 1).numFmt = "@";
    });
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: "frozen", ySplit: 1 }];
    for (const c of columns) {
      const note =
        sheetName === COLLECTOR_SHEET
          ? COLLECTOR_NOTES[c.key as CollectorKey]
          : TOPOLOGY_NOTES[c.key as NodeKey | NodeMeterKey];
      notes.addRow([`${sheetName}: ${c.header}`, note]);
    }
  }
  notes.addRow([
    "计量拓扑",
    "计量节点和节点下级表两页可不填; 也可只填这两页导入拓扑。计量节点、节点下级表页面导出的表格也可直接导入; 列名可用中文或英文(Node name, Parent node, Energy type, Node type, Master meter; Metering node, Meter, Meter role)",
  ]);
  if (choices.collectorTypes?.length) notes.addRow(["采集器类型可选值", choices.collectorTypes.join("、")]);
  notes.addRow([
    "采集器",
    "采集器页可不填; 填写时先于房间档案页导入, 房间档案页的采集器注册码可直接使用本页新建的采集器。集中器(Q/GDW 1376.1)须填写终端地址和接入密钥; 列名可用中文或英文(Collector code, Collector name, Collector type, Terminal address, Registration secret, Remark)",
  ]);
  notes.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}
