import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { nextId } from "../src/db/ids.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { xlsxOf } from "./xlsx-fixtures.ts";

describe("Excel exports", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
  });
  after(() => server.close());

  const exported = async (url: string) => {
    const res = await server.call("GET", url, token);
    assert.equal(res.statusCode, 200, res.body);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: ExcelJS.CellValue[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    return { res, rows };
  };
  const logRows = (uri: string, titles: string[]) =>
    server.db.query(
      `insert into log_api (id, tenant_id, request_uri, title, create_time)
       select $1::bigint + n, '000000', $2, ($3::text[])[n], now() - make_interval(secs => n)
         from generate_series(1, cardinality($3::text[])) n`,
      [nextId(), uri, titles],
    );

  test("an export stops at the export.maxRows bound and says so", async () => {
    await server.db.query(
      `insert into sys_param (id, param_name, param_key, param_value) values ($1, '导出行数上限', 'export.maxRows', '50')`,
      [nextId()],
    );
    await logRows(
      "/bound-test",
      Array.from({ length: 60 }, (_, i) => `call ${i}`),
    );
    const { res, rows } = await exported("/api/blade-log/api/export?requestUri=bound-test");
    assert.equal(res.headers["x-export-truncated"], "50");
    assert.equal(rows.length, 1 + 50 + 1);
    assert.deepEqual(rows.at(-1), ["仅导出前 50 行,请缩小查询范围"]);
    await server.db.query("delete from sys_param where param_key = 'export.maxRows'");
    const whole = await exported("/api/blade-log/api/export?requestUri=bound-test");
    assert.equal(whole.res.headers["x-export-truncated"], undefined);
    assert.equal(whole.rows.length, 1 + 60);
  });

  test("an export of several chunks keeps list order across equal sort values, every row once", async () => {
    // Seven calls share each second: the keyset of the chunks must break ties by id, as the list does.
    await server.db.query(
      `insert into log_api (id, tenant_id, request_uri, title, create_time)
       select $1::bigint + n, '000000', '/chunk-test', 'row ' || n, now() - make_interval(secs => n / 7)
         from generate_series(1, 700) n`,
      [nextId()],
    );
    const { rows } = await exported("/api/blade-log/api/export?requestUri=chunk-test");
    const titleAt = (rows[0] as string[]).indexOf("接口名称");
    const titles = rows.slice(1).map((row) => row[titleAt]);
    assert.deepEqual(
      titles,
      Array.from({ length: 700 }, (_, i) => `row ${i + 1}`),
    );
  });

  test("text that a spreadsheet would run as a formula is exported as text", async () => {
    const titles = ["=1+1", "+SUM(A1)", "-2", "@cmd", "\tx", "\rx", "plain", "a=b"];
    await logRows("/formula-test", titles);
    const { rows } = await exported("/api/blade-log/api/export?requestUri=formula-test");
    const titleAt = (rows[0] as string[]).indexOf("接口名称");
    assert.ok(titleAt >= 0, String(rows[0]));
    const cells = rows.slice(1).map((row) => row[titleAt]);
    // XML reads a carriage return back as a line feed; the apostrophe in front is what counts.
    assert.deepEqual(cells, ["'=1+1", "'+SUM(A1)", "'-2", "'@cmd", "'\tx", "'\nx", "plain", "a=b"]);
  });

  test("a sheet of rejected rows neutralises formulas and imports back as typed", async () => {
    const importUsers = async (content: Buffer) => {
      const body = multipartFile("users.xlsx", content);
      const res = await server.inject({
        method: "POST",
        url: "/api/blade-user/import-user",
        headers: { ...body.headers, "blade-auth": `bearer ${token}` },
        payload: body.payload,
      });
      assert.equal(res.statusCode, 200, res.body);
      const file = await server.inject({ method: "GET", url: res.json().data.rejectedFile });
      assert.equal(file.statusCode, 200);
      return file.rawPayload;
    };
    const header = [
      "登录账号",
      "用户昵称",
      "用户姓名",
      "手机号码",
      "电子邮箱",
      "角色别名",
      "部门名称",
      "性别",
    ];
    const first = await importUsers(await xlsxOf(header, [["=cmd|' /C calc'!A0", "@SUM(1)", "n", "12345"]]));
    const cells = async (content: Buffer) => {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(content as unknown as ArrayBuffer);
      const row = book.worksheets[0]!.getRow(2);
      return [row.getCell(1).value, row.getCell(2).value];
    };
    assert.deepEqual(await cells(first), ["'=cmd|' /C calc'!A0", "'@SUM(1)"]);
    // Imported again, the cells are read as the user typed them, and neutralised once, not twice.
    assert.deepEqual(await cells(await importUsers(first)), ["'=cmd|' /C calc'!A0", "'@SUM(1)"]);
  });
});
