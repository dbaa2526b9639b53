import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { DbMeterDirectory } from "../src/modules/metering/meter-directory.db.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

/**
 * Modbus TCP meters reached directly: the endpoint is a collector of transport "modbus" with its
 * host and port, its meters speak Modbus TCP with a catalogue model and a unit id, and the gateway's
 * directory hands them over with the endpoint to dial.
 */
describe("Modbus TCP endpoints and their meters in the registry", () => {
  let server: TestServer;
  let token: string;
  let endpoint: string;
  let dtu: string;
  const stamp = Date.now();
  const code = `MBTCP-${stamp}`;

  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
    endpoint = await created(server, token, "collector/submit", {
      collectorName: "商铺 Modbus TCP 网关",
      collectorCode: code,
      transport: "modbus",
      modbusHost: "192.168.10.20",
      modbusPort: 502,
    });
    dtu = await created(server, token, "collector/submit", {
      collectorName: "配电箱 DTU",
      collectorCode: `DTU-${stamp}`,
    });
  });
  after(async () => {
    await server.close();
  });

  const submit = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const refused = async (path: string, body: Record<string, unknown>, field: RegExp) => {
    const res = await submit(path, body);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, field);
  };

  test("an endpoint needs a host that is an IP address or a name, and a port 1..65535, each refused by name", async () => {
    let n = 0;
    const collector = (fields: Record<string, unknown>) => ({
      collectorName: "网关",
      collectorCode: `MBTCP-BAD-${stamp}-${n++}`,
      transport: "modbus",
      ...fields,
    });
    await refused("collector/submit", collector({ modbusPort: 502 }), /^modbusHost: /);
    for (const host of ["999.1.1.1", "meter host", "-gw.example", "10.0.0.1:502"])
      await refused("collector/submit", collector({ modbusHost: host, modbusPort: 502 }), /^modbusHost: /);
    await refused("collector/submit", collector({ modbusHost: "10.0.0.7" }), /^modbusPort: /);
    await refused("collector/submit", collector({ modbusHost: "10.0.0.7", modbusPort: 70000 }), /modbusPort/);
    await refused("collector/submit", collector({ modbusHost: "10.0.0.7", modbusPort: 0 }), /modbusPort/);
    // A DTU dials in: it takes no endpoint.
    await refused(
      "collector/submit",
      { collectorName: "DTU", collectorCode: `DTU-BAD-${stamp}`, modbusHost: "10.0.0.7" },
      /^modbusHost: /,
    );
    // Names and IPv6 addresses are endpoints too.
    for (const host of ["gw-3.shop.example", "fd00::7"])
      await created(server, token, "collector/submit", collector({ modbusHost: host, modbusPort: 1502 }));
    // An edit that clears the host of a stored endpoint is refused the same way.
    await refused("collector/submit", { id: endpoint, modbusHost: "" }, /^modbusHost: /);
  });

  test("a Modbus TCP meter sits on an endpoint with a model and unit id; other meters do not", async () => {
    const meter = { channel: 1, protocol: "modbus_tcp", modbusModel: "ddsy1352", modbusSlave: 2 };
    await refused(
      "meter/save",
      { ...meter, productCode: "320000000001", collectorId: dtu },
      /^collectorId: Modbus TCP 电表须接在 Modbus TCP 直连的采集器下/,
    );
    await refused(
      "meter/save",
      { collectorId: endpoint, channel: 1, productCode: "320000000002" },
      /^protocol: /,
    );
    await refused(
      "meter/save",
      { ...meter, productCode: "320000000003", collectorId: endpoint, modbusModel: undefined },
      /^modbusModel: /,
    );
    const id = await created(server, token, "meter/save", {
      ...meter,
      productCode: "320000000010",
      collectorId: endpoint,
    });
    const detail = (await server.call("GET", `${pms}/meter/detail?id=${id}`, token)).json().data;
    assert.deepEqual(
      [detail.protocol, detail.modbusModel, detail.modbusSlave],
      ["modbus_tcp", "ddsy1352", 2],
    );
  });

  test("the gateway's directory hands the endpoint over to dial, apart from the DTUs' meters", async () => {
    const directory = new DbMeterDirectory(server.db, new FieldCipher(server.dataKey), 60_000);
    const mine = (await directory.modbusTcpMeters()).filter((m) => m.collectorId === code);
    assert.deepEqual(
      mine.map((m) => [m.address, m.protocol, m.model.modbusModel, m.model.modbusTcp]),
      [["2", "modbus", "ddsy1352", { host: "192.168.10.20", port: 502 }]],
    );
    assert.deepEqual(await directory.metersOf(code), [], "a DTU session never serves the endpoint's meters");
  });

  test("the collector's detail shows the endpoint it is dialled at", async () => {
    const res = await server.call("GET", `${pms}/collector/overview?id=${endpoint}`, token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.collector.modbusEndpoint, "192.168.10.20:502");
  });

  test("the import sheets make an endpoint from Modbus TCP 地址 and put Modbus TCP meters on it", async () => {
    const book = new ExcelJS.Workbook();
    for (const [name, rows] of Object.entries({
      采集器: [
        ["采集器注册码", "采集器名称", "Modbus TCP 地址"],
        [`GW-A-${stamp}`, "A 区网关", "10.1.2.3:502"],
        [`GW-B-${stamp}`, "B 区网关", "10.1.2.3"],
        [`GW-C-${stamp}`, "C 区网关", "[fd00::9]:1502"],
      ],
      房间档案: [
        ["区域路径", "房间名称", "电表表号", "采集器注册码", "电表规约", "Modbus型号", "Modbus从站地址"],
        ["商业街/A 区", "A1", "330000000001", `GW-A-${stamp}`, "Modbus TCP", "伊斯顿 SDM630", "1"],
        ["商业街/A 区", "A2", "330000000002", `GW-A-${stamp}`, "DL/T 645-2007", "", ""],
        ["商业街/A 区", "A3", "330000000003", code, "Modbus TCP", "", "3"],
      ],
    })) {
      const sheet = book.addWorksheet(name);
      for (const row of rows) sheet.addRow(row);
    }
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
    const reasons = preview.problems.map((p: { reason: string }) => p.reason).join("\n");
    assert.match(reasons, /Modbus TCP 地址: \[10\.1\.2\.3\] 须为 主机:端口/);
    assert.match(reasons, /电表规约: 采集器 \[GW-A-\d+\] 为 Modbus TCP 直连, 只能接 Modbus TCP 电表/);
    assert.match(reasons, /Modbus型号: Modbus-RTU 或 Modbus TCP 电表必填/);
    await upload("import");
    const collectors = await server.db.query<{
      collector_code: string;
      transport: string;
      modbus_host: string;
    }>(
      "select collector_code, transport, modbus_host from pms_collector where collector_code like $1 order by 1",
      [`GW-%-${stamp}`],
    );
    assert.deepEqual(
      collectors.map((c) => [c.collector_code, c.transport, c.modbus_host]),
      [
        [`GW-A-${stamp}`, "modbus", "10.1.2.3"],
        [`GW-C-${stamp}`, "modbus", "fd00::9"],
      ],
    );
    const [meter] = await server.db.query<{ protocol: string; modbus_model: string; modbus_slave: number }>(
      "select protocol, modbus_model, modbus_slave from pms_meter where product_code = '330000000001' and is_deleted = 0",
    );
    assert.deepEqual(meter, { protocol: "modbus_tcp", modbus_model: "sdm630", modbus_slave: 1 });
  });
});
