import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

async function sheet(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet("用户");
  ws.addRow(["登录账号", "用户昵称", "用户姓名", "手机号码", "电子邮箱", "角色别名", "部门名称", "性别"]);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe("user import from Excel", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
  });
  after(() => server.close());

  const upload = async (content: Buffer, covered = false) => {
    const body = multipartFile("users.xlsx", content);
    return server.inject({
      method: "POST",
      url: `/api/blade-user/import-user?isCovered=${covered ? 1 : 0}`,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
  };

  test("good rows land, bad rows come back with reasons, and no bad row is half-written", async () => {
    const good = Array.from({ length: 300 }, (_, i) => [
      `imp${i}`,
      `昵称${i}`,
      `姓名${i}`,
      "13800000000",
      "",
      "user",
      "Meterline",
      "男",
    ]);
    const bad = [
      ["imp5", "重复", "重复", "", "", "user", "Meterline", ""], // same account as a good row earlier in the file
      ["badphone", "n", "r", "12345", "", "user", "Meterline", ""],
      ["badrole", "n", "r", "", "", "nobody", "Meterline", ""],
      ["noname", "", "r", "", "", "user", "Meterline", ""],
    ];
    const res = await upload(await sheet([...good, ...bad]));
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual([data.created, data.updated, data.rejected], [300, 0, 4]);
    const [{ n }] = (await server.db.query<{ n: string }>(
      "select count(*) as n from sys_user where account like 'imp%' or account in ('badphone','badrole','noname')",
    )) as [{ n: string }];
    assert.equal(Number(n), 300);
    const file = await server.inject({ method: "GET", url: data.rejectedFile });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const reasons = book.worksheets[0]!.getColumn(9).values.slice(2).map(String);
    assert.equal(reasons.length, 4);
    assert.match(reasons[0]!, /已存在/);
    assert.match(reasons[1]!, /^phone: /);
    assert.match(reasons[2]!, /^角色别名: 不存在 nobody/);
    assert.match(reasons[3]!, /^name: /);
    // Imported users sign in with the initial password.
    assert.equal((await server.login("imp0", "123456")).account, "imp0");
  });

  test("with isCovered an existing account is updated instead of refused", async () => {
    const res = await upload(
      await sheet([["imp1", "新昵称", "新姓名", "13900000000", "", "user", "", "女"]]),
      true,
    );
    assert.deepEqual([res.json().data.created, res.json().data.updated], [0, 1]);
    const [row] = await server.db.query<{ name: string; sex: number }>(
      "select name, sex from sys_user where account = 'imp1'",
    );
    assert.deepEqual(row, { name: "新昵称", sex: 2 });
  });

  test("a file that is not a user sheet is refused as a whole", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("x").addRow(["a", "b"]);
    const res = await upload(Buffer.from(await book.xlsx.writeBuffer()));
    assert.equal(res.statusCode, 400);
    assert.match(res.json().msg, /^file: 缺少列/);
    const template = await server.inject({
      method: "GET",
      url: "/api/blade-user/export-template",
      headers: { "blade-auth": `bearer ${token}` },
    });
    assert.equal(template.statusCode, 200);
  });
});
