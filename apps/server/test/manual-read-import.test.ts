import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, get } from "./registry-fixtures.ts";
import { xlsxOf } from "./xlsx-fixtures.ts";

interface Result {
  imported: number;
  rejected: number;
  rejectedFile: string;
}

const HEADER = ["表号", "总示数", "抄读时间"] as const;

describe("Excel import of reads taken on site", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let otherMeter: string;

  const upload = async (path: string, content: Buffer, token = admin) => {
    const body = multipartFile("reads.xlsx", content);
    return server.inject({
      method: "POST",
      url: `/api/blade-pms/${path}`,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
  };
  const imported = async (path: string, content: Buffer) => {
    const res = await upload(path, content);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Result;
  };
  const day = async (date: string) => {
    const page = await get(server, admin, `datadailydd/page?meterId=${site.meter}&size=50`);
    const row = (
      page.records as { dayDate: string; startValue: string; endValue: string; usage: string }[]
    ).find((r) => r.dayDate === date);
    return row && [row.startValue, row.endValue, row.usage];
  };
  const manualCount = async () =>
    (await get(server, admin, `dataread/page?meterId=${site.meter}&source=manual&size=50`)).total as number;

  const sheet = () =>
    xlsxOf(HEADER, [
      ["100000000101", "100", "2025-03-10 08:00:00"],
      ["100000000101", "110.5", "2025-03-10 12:00:00"],
      ["100000000101", "90", "2025-03-10 18:00:00"],
      ["999999999999", "5", "2025-03-10 08:00:00"],
      [otherMeter, "5", "2025-03-10 08:00:00"],
      ["100000000101", "200", "2099-01-01 00:00:00"],
      ["100000000101", "abc", "2025-03-10 20:00:00"],
      ["100000000101", "100", "2025-03-10 08:00:00"],
    ]);

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    const other = await provisionTenant(server, admin, "别家物业");
    await buildSite(server, other.token, "B");
    otherMeter = "900000000101";
  });
  after(() => server.close());

  test("the template has the columns the import reads", async () => {
    const res = await server.inject({
      method: "GET",
      url: "/api/blade-pms/dataread/import-template",
      headers: { "blade-auth": `bearer ${admin}` },
    });
    assert.equal(res.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const headers = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1).map(String);
    assert.deepEqual(headers, [...HEADER, "尖示数", "峰示数", "平示数", "谷示数"]);
  });

  test("good rows are entered as manual reads and change the day; bad ones come back with reasons", async () => {
    const result = await imported("dataread/import", await sheet());
    assert.deepEqual([result.imported, result.rejected], [2, 6]);
    assert.deepEqual(await day("2025-03-10"), ["100.00", "110.50", "10.50"]);
    assert.equal(await manualCount(), 2);

    const download = await server.inject({ method: "GET", url: result.rejectedFile });
    assert.equal(download.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    const rows = book.worksheets[0]!.getSheetValues().slice(2) as unknown[][];
    // The reason follows the sheet's seven columns (表号 … 谷示数).
    const reasons = rows.map((r) => `${r[1]} ${r[2]} ${r[8]}`);
    assert.equal(reasons.length, 6);
    assert.match(reasons[0]!, /^100000000101 90 totalValue: .*低于/);
    assert.match(reasons[1]!, /^999999999999 .*本租户没有表/);
    assert.match(reasons[2]!, /^900000000101 .*本租户没有表/, "another tenant's meter is not ours");
    assert.match(reasons[3]!, /readTime: 抄读时间不能晚于现在/);
    assert.match(reasons[4]!, /总示数: 应为非负数/);
    assert.match(reasons[5]!, /已有抄读, 不重复导入/);
  });

  test("importing the same sheet again adds nothing: every good row is now a duplicate", async () => {
    const result = await imported("dataread/import", await sheet());
    assert.deepEqual([result.imported, result.rejected], [0, 8]);
    assert.equal(await manualCount(), 2);
    assert.deepEqual(await day("2025-03-10"), ["100.00", "110.50", "10.50"]);
  });

  test("water reads import the same way; a sheet without the columns is refused naming the file", async () => {
    const water = await imported(
      "waterdataread/import",
      await xlsxOf(HEADER, [["10000000000101", "12.3", "2025-03-10 09:00"]]),
    );
    assert.deepEqual([water.imported, water.rejected], [1, 0]);
    const reads = await get(server, admin, `waterdataread/page?meterId=${site.water}&source=manual`);
    assert.equal(reads.records[0]?.totalValue, "12.30");

    const wrong = await upload("dataread/import", await xlsxOf(["表号", "示数"], [["100000000101", "1"]]));
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.match(wrong.json().msg, /^file: 缺少列/);
  });
});
