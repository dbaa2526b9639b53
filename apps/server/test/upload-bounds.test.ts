import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { xlsxBomb, xlsxClaimingHugeEntry, xlsxOf } from "./xlsx-fixtures.ts";

const REGISTRY = ["区域路径", "房间名称"];
const USERS = ["登录账号", "用户昵称", "用户姓名", "手机号码", "电子邮箱", "角色别名", "部门名称", "性别"];

describe("spreadsheet uploads are bounded before they are parsed", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
  });
  after(() => server.close());

  const upload = (url: string, content: Buffer) => {
    const body = multipartFile("sheet.xlsx", content);
    return server.inject({
      method: "POST",
      url,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
  };
  const refusal = async (url: string, content: Buffer) => {
    const res = await upload(url, content);
    assert.equal(res.statusCode, 400, res.body);
    return res.json().msg as string;
  };

  test("a sheet of 50,000 rows is refused at the row bound while /api/health keeps answering", async () => {
    const bomb = await xlsxBomb(REGISTRY, 50_000);
    assert.ok(bomb.length < 1024 * 1024);
    const preview = upload("/api/blade-pms/room/import-preview", bomb);
    const users = upload("/api/blade-user/import-user", await xlsxBomb(USERS, 50_000));
    const health = await server.inject({ method: "GET", url: "/api/health" });
    assert.equal(health.statusCode, 200);
    assert.equal(health.json().success, true);
    const [previewed, imported] = await Promise.all([preview, users]);
    assert.equal(previewed.statusCode, 400);
    assert.equal(previewed.json().msg, "file: 文件行数超过上限 10000");
    assert.equal(imported.statusCode, 400);
    assert.equal(imported.json().msg, "file: 文件行数超过上限 5000");
  });

  test("an archive whose directory claims a huge entry is refused without inflating it", async () => {
    const bomb = await xlsxClaimingHugeEntry();
    assert.equal(await refusal("/api/blade-pms/room/import", bomb), "file: 解压后的内容超过上限 64MB");
    assert.equal(await refusal("/api/blade-user/import-user", bomb), "file: 解压后的内容超过上限 32MB");
  });

  test("columns and cell text are bounded, naming the bound and the cell", async () => {
    const wide = await xlsxOf([...REGISTRY, ...Array.from({ length: 63 }, (_, i) => `c${i}`)], [["a", "b"]]);
    assert.equal(await refusal("/api/blade-pms/room/import-preview", wide), "file: 文件列数超过上限 64");
    const long = await xlsxOf(REGISTRY, [["园区", "x".repeat(1001)]]);
    assert.equal(
      await refusal("/api/blade-pms/room/import-preview", long),
      "file: 单元格 B2 的内容超过上限 1000 字",
    );
    const longUser = await xlsxOf(USERS, [["u1", "y".repeat(1001)]]);
    assert.equal(
      await refusal("/api/blade-user/import-user", longUser),
      "file: 单元格 B2 的内容超过上限 1000 字",
    );
  });

  test("a sheet at the row bound is read whole", async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ["界园区", `${i}`]);
    const res = await upload("/api/blade-pms/room/import-preview", await xlsxOf(REGISTRY, rows));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.total, 10_000);
  });

  test("uploads that are not multipart, or too large, are refused naming file", async () => {
    for (const url of ["/api/blade-resource/oss/endpoint/put-file", "/api/blade-user/import-user"]) {
      const json = await server.call("POST", url, token, { file: "x" });
      assert.equal(json.statusCode, 400, `${url}: ${json.body}`);
      assert.match(json.json().msg, /^file: /);
    }
    const big = await upload("/api/blade-user/import-user", Buffer.alloc(6 * 1024 * 1024));
    assert.equal(big.statusCode, 400);
    assert.equal(big.json().msg, "file: 文件不能超过 5MB");
  });
});
