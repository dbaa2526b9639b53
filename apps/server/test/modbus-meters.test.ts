import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { modbusCatalogue } from "@meterline/gateway";
import ExcelJS from "exceljs";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { DbMeterDirectory } from "../src/modules/metering/meter-directory.db.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

/** Modbus-RTU meters in the registry: a catalogue model and a slave address, handed to the gateway. */
describe("Modbus meters in the registry", () => {
  let server: TestServer;
  let token: string;
  let collector: string;
  const code = `MB-DTU-${Date.now()}`;

  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
    collector = await created(server, token, "collector/submit", {
      collectorName: "配电箱 DTU",
      collectorCode: code,
    });
  });
  after(async () => {
    await server.close();
  });

  const save = (body: Record<string, unknown>) => server.call("POST", `${pms}/meter/save`, token, body);
  // The collector exists once `before` ran.
  const base = () => ({ collectorId: collector, channel: 1, protocol: "modbus_rtu" });

  test("the model dictionary lists exactly the gateway's catalogue", async () => {
    const rows = await server.db.query<{ dict_key: string }>(
      "select dict_key from sys_dict where code = 'modbus_model' and parent_id > 0 and is_deleted = 0 order by dict_key",
    );
    assert.deepEqual(
      rows.map((row) => row.dict_key),
      [...modbusCatalogue().keys()].sort(),
    );
  });

  test("an unknown model, or a Modbus meter without model or slave address, is refused naming the field", async () => {
    const unknown = await save({
      ...base(),
      productCode: "300000000001",
      modbusModel: "nosuch",
      modbusSlave: 1,
    });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.match(unknown.json().msg, /^modbusModel: /);
    const noModel = await save({ ...base(), productCode: "300000000002", modbusSlave: 1 });
    assert.equal(noModel.statusCode, 400, noModel.body);
    assert.match(noModel.json().msg, /^modbusModel: Modbus 电表须选择型号/);
    const noSlave = await save({ ...base(), productCode: "300000000003", modbusModel: "sdm120" });
    assert.equal(noSlave.statusCode, 400, noSlave.body);
    assert.match(noSlave.json().msg, /^modbusSlave: /);
    const badSlave = await save({
      ...base(),
      productCode: "300000000004",
      modbusModel: "sdm120",
      modbusSlave: 248,
    });
    assert.equal(badSlave.statusCode, 400, badSlave.body);
    assert.match(badSlave.json().msg, /modbusSlave/);
  });

  test("a Modbus meter is saved, shown on its detail, and reaches the gateway by slave address and model", async () => {
    const id = await created(server, token, "meter/save", {
      ...base(),
      productCode: "300000000010",
      modbusModel: "ddsy1352",
      modbusSlave: 7,
    });
    const detail = (await server.call("GET", `${pms}/meter/detail?id=${id}`, token)).json().data;
    assert.deepEqual(
      [detail.protocol, detail.modbusModel, detail.modbusSlave],
      ["modbus_rtu", "ddsy1352", 7],
    );
    // A DL/T 645 meter on the same DTU keeps its product code as address and has no model.
    await created(server, token, "meter/save", {
      collectorId: collector,
      channel: 1,
      productCode: "300000000011",
    });
    const directory = new DbMeterDirectory(server.db, new FieldCipher(server.dataKey), 60_000);
    const meters = await directory.metersOf(code);
    assert.deepEqual(
      meters.map((m) => [m.address, m.protocol, m.model.modbusModel]),
      [
        ["7", "modbus", "ddsy1352"],
        ["300000000011", "dlt645-2007", undefined],
      ],
    );
    // Switching the meter's model on edit is checked the same way.
    const edited = await server.call("POST", `${pms}/meter/submit`, token, {
      ...base(),
      id,
      productCode: "300000000010",
      modbusModel: "nosuch",
    });
    assert.equal(edited.statusCode, 400, edited.body);
    assert.match(edited.json().msg, /^modbusModel: /);
  });

  test("the import sheet takes a Modbus meter's model and slave address, and refuses them wrong or astray", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("房间档案");
    for (const row of [
      ["区域路径", "房间名称", "电表表号", "采集器注册码", "电表规约", "Modbus型号", "Modbus从站地址"],
      ["配电园区/商铺", "S1", "310000000001", code, "Modbus-RTU", "伊斯顿 SDM120", "3"],
      ["配电园区/商铺", "S2", "310000000002", code, "Modbus-RTU", "sdm999", "4"],
      ["配电园区/商铺", "S3", "310000000003", code, "Modbus-RTU", "", "5"],
      ["配电园区/商铺", "S4", "310000000004", code, "DL/T 645-2007", "sdm120", ""],
      ["配电园区/商铺", "S5", "310000000005", code, "modbus_rtu", "ddsy1352", "300"],
    ])
      sheet.addRow(row);
    const content = Buffer.from(await book.xlsx.writeBuffer());
    const upload = async (verb: "import" | "import-preview") => {
      const body = multipartFile("site.xlsx", content);
      const res = await server.inject({
        method: "POST",
        url: `${pms}/room/${verb}`,
        headers: { ...body.headers, "blade-auth": `bearer ${token}` },
        payload: body.payload,
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };
    const preview = await upload("import-preview");
    const reasons = new Map<number, string>(
      preview.problems.map((p: { row: number; reason: string }) => [p.row, p.reason]),
    );
    assert.match(reasons.get(3) ?? "", /^Modbus型号: \[sdm999\] 不存在, 可选 .*伊斯顿 SDM120/);
    assert.match(reasons.get(4) ?? "", /^Modbus型号: Modbus-RTU 或 Modbus TCP 电表必填/);
    assert.match(reasons.get(5) ?? "", /^Modbus型号: 只用于电表规约为 Modbus-RTU 或 Modbus TCP 的电表/);
    assert.match(reasons.get(6) ?? "", /Modbus从站地址/);
    assert.equal(reasons.has(2), false, reasons.get(2));
    const answer = await upload("import");
    assert.deepEqual([answer.imported, answer.rejected], [1, 4]);
    const [row] = await server.db.query<{ protocol: string; modbus_model: string; modbus_slave: number }>(
      "select protocol, modbus_model, modbus_slave from pms_meter where product_code = '310000000001' and is_deleted = 0",
    );
    assert.deepEqual(row, { protocol: "modbus_rtu", modbus_model: "sdm120", modbus_slave: 3 });
  });
});
