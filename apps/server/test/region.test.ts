import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

describe("regions", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  test("provinces and cities are seeded and load a level at a time", async () => {
    const provinces = (
      await server.call("GET", "/api/blade-system/region/lazy-tree?parentCode=00", admin)
    ).json().data;
    assert.ok(provinces.length >= 31);
    const beijing = provinces.find((p: { title: string }) => p.title === "北京市");
    assert.equal(beijing.id, "11");
    assert.equal(beijing.hasChildren, true);
    const cities = (
      await server.call("GET", "/api/blade-system/region/lazy-tree?parentCode=32", admin)
    ).json().data;
    assert.ok(cities.some((c: { title: string; id: string }) => c.title === "南京市" && c.id === "3201"));
  });

  test("a district is added under its city with the level's code pair, and a parent with children stays", async () => {
    const add = await server.call("POST", "/api/blade-system/region/submit", admin, {
      code: "320102",
      parentCode: "3201",
      name: "玄武区",
      sort: 1,
    });
    assert.equal(add.statusCode, 200, add.body);
    const [row] = await server.db.query<Record<string, unknown>>(
      "select region_level, ancestors, province_code, city_name, district_code from sys_region where code = '320102'",
    );
    assert.deepEqual(row, {
      region_level: 3,
      ancestors: "0,00,32,3201",
      province_code: "32",
      city_name: "南京市",
      district_code: "320102",
    });
    const wrong = await server.call("POST", "/api/blade-system/region/submit", admin, {
      code: "990101",
      parentCode: "3201",
      name: "x",
    });
    assert.equal(wrong.json().msg, "code: 区划编号须以上级编号开头");
    const refused = await server.call("POST", "/api/blade-system/region/remove?id=3201", admin);
    assert.equal(refused.json().msg, "请先删除子节点!");
    assert.equal(
      (await server.call("POST", "/api/blade-system/region/remove?id=320102", admin)).statusCode,
      200,
    );
    const detail = await server.call("GET", "/api/blade-system/region/detail?code=3201", admin);
    assert.equal(detail.json().data.parentName, "江苏省");
  });
  test("a province stands under the country without carrying its code 00: edited and added as such", async () => {
    const before = (await server.call("GET", "/api/blade-system/region/detail?code=11", admin)).json().data;
    const edit = await server.call("POST", "/api/blade-system/region/submit", admin, {
      code: "11",
      parentCode: "00",
      name: before.name,
      sort: 7,
      remark: before.remark,
    });
    assert.equal(edit.statusCode, 200, edit.body);
    const after = (await server.call("GET", "/api/blade-system/region/detail?code=11", admin)).json().data;
    assert.deepEqual(after, { ...before, sort: 7 });
    const add = await server.call("POST", "/api/blade-system/region/submit", admin, {
      code: "98",
      parentCode: "00",
      name: "测试省",
    });
    assert.equal(add.statusCode, 200, add.body);
    const added = (await server.call("GET", "/api/blade-system/region/detail?code=98", admin)).json().data;
    assert.equal(added.regionLevel, 1);
    const country = await server.call("POST", "/api/blade-system/region/submit", admin, {
      code: "00",
      parentCode: "00",
      name: "x",
    });
    assert.equal(country.json().msg, "code: 区划编号须以上级编号开头");
  });

  test("a sheet of regions imports parents before children, refuses bad rows, and exports back", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("行政区划");
    sheet.addRow(["区划编号", "上级编号", "区划名称", "排序", "备注"]);
    // The street comes first in the sheet; its district is added before it all the same.
    sheet.addRow(["320105001", "320105", "沙洲街道", 1, ""]);
    sheet.addRow(["320105", "3201", "建邺区", 5, "导入"]);
    sheet.addRow(["990101", "9901", "无上级", 1, ""]);
    sheet.addRow(["3202xx", "3202", "坏编号", 1, ""]);
    const body = multipartFile("regions.xlsx", Buffer.from(await book.xlsx.writeBuffer()));
    const res = await server.inject({
      method: "POST",
      url: "/api/blade-system/region/import-region",
      headers: { ...body.headers, "blade-auth": `bearer ${admin}` },
      payload: body.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    const result = res.json().data;
    assert.deepEqual([result.created, result.updated, result.rejected], [2, 0, 2]);
    assert.ok(result.errors.some((e: string) => e.startsWith("第4行") && e.includes("上级区划不存在")));
    const street = (await server.call("GET", "/api/blade-system/region/detail?code=320105001", admin)).json()
      .data;
    assert.equal(street.parentName, "建邺区");
    assert.equal(street.regionLevel, 4);

    const exported = await server.call("GET", "/api/blade-system/region/export-region?code=320105", admin);
    assert.equal(exported.statusCode, 200, exported.body);
    const back = new ExcelJS.Workbook();
    await back.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const rows: string[] = [];
    back.worksheets[0]!.eachRow((row) => rows.push(String(row.getCell(1).value)));
    assert.deepEqual(rows, ["区划编号", "320105", "320105001"]);
  });
});
