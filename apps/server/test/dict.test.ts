import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { nextId } from "../src/db/ids.ts";
import { addRole, addTenant, addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

describe("dictionaries", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  const submit = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `/api/blade-system/${path}/submit`, token, body);

  test("every enumeration of the spec is seeded as a business dictionary with zh and en labels", async () => {
    const codes = [
      "RUN_STATUS",
      "METER_TYPE",
      "PAYMENT_METHOD",
      "RECHARGE_TYPE",
      "MERGE_ALARM_FLAG",
      "YES_NO",
      "ALARM_LEVEL",
      "ALARM_STATUS",
      "MSG_RESULT",
      "SWITCH_STATUS",
      "CONTROL_STATUS",
      "ACCOUNT_STATUS",
      "FIRST_ALARM_STATUS",
      "SECOND_ALARM_STATUS",
      "ARREAS_STATUS",
      "P_STATUS",
      "ONLINE_STATUS",
      "SWITCH_TYPE",
      "JFPG_FLAG",
    ];
    for (const code of codes) {
      const items = (
        await server.call("GET", `/api/blade-system/dict-biz/dictionary?code=${code}`, admin)
      ).json().data;
      assert.ok(items.length >= 2, `${code} has items`);
      for (const item of items) {
        assert.ok(item.dictValue && item.dictValueEn, `${code}.${item.dictKey} has both labels`);
      }
    }
    const result = (
      await server.call("GET", "/api/blade-system/dict-biz/dictionary?code=MSG_RESULT", admin)
    ).json().data;
    assert.deepEqual(
      result.map((i: { dictKey: string; dictValueEn: string }) => [i.dictKey, i.dictValueEn]),
      [
        ["0", "Failed"],
        ["1", "Succeeded"],
        ["2", "Timed out, to be confirmed"],
      ],
    );
  });

  test("an item takes its dictionary's code, needs a key, and keys are unique within the code", async () => {
    const root = (
      await submit("dict", { parentId: "0", code: "colour", dictValue: "颜色", sort: 1, isSealed: 0 })
    ).json().data.id;
    const noKey = await submit("dict", {
      parentId: root,
      code: "ignored",
      dictValue: "红",
      sort: 1,
      isSealed: 0,
    });
    assert.equal(noKey.statusCode, 400);
    assert.equal(noKey.json().msg, "dictKey: 不能为空");
    const red = await submit("dict", {
      parentId: root,
      code: "ignored",
      dictKey: "red",
      dictValue: "红",
      sort: 1,
      isSealed: 0,
    });
    assert.equal(red.statusCode, 200);
    const items = (await server.call("GET", "/api/blade-system/dict/dictionary?code=colour", admin)).json()
      .data;
    assert.deepEqual(
      items.map((i: { code: string; dictKey: string }) => [i.code, i.dictKey]),
      [["colour", "red"]],
    );
    const again = await submit("dict", {
      parentId: root,
      code: "colour",
      dictKey: "red",
      dictValue: "又红",
      sort: 2,
      isSealed: 0,
    });
    assert.equal(again.statusCode, 400);
    assert.match(again.json().msg, /^dictKey: \[red\] 已存在/);
  });

  test("renaming a dictionary's code renames its items; a dictionary with items cannot be removed", async () => {
    const root = (
      await submit("dict", { parentId: "0", code: "shape", dictValue: "形状", sort: 1, isSealed: 0 })
    ).json().data.id;
    await submit("dict", {
      parentId: root,
      code: "shape",
      dictKey: "round",
      dictValue: "圆",
      sort: 1,
      isSealed: 0,
    });
    assert.equal(
      (await submit("dict", { id: root, code: "form", dictValue: "形状", sort: 1, isSealed: 0 })).statusCode,
      200,
    );
    const items = (await server.call("GET", "/api/blade-system/dict/dictionary?code=form", admin)).json()
      .data;
    assert.deepEqual(
      items.map((i: { dictKey: string }) => i.dictKey),
      ["round"],
    );
    const remove = await server.call("POST", `/api/blade-system/dict/remove?ids=${root}`, admin);
    assert.equal(remove.statusCode, 400);
    assert.equal(remove.json().msg, "请先删除子节点!");
  });

  test("sealed items are left out of selects; parent-list and child-list serve the two panes", async () => {
    const root = (
      await submit("dict", { parentId: "0", code: "size", dictValue: "尺寸", sort: 1, isSealed: 0 })
    ).json().data.id;
    await submit("dict", {
      parentId: root,
      code: "size",
      dictKey: "s",
      dictValue: "小",
      sort: 1,
      isSealed: 0,
    });
    await submit("dict", {
      parentId: root,
      code: "size",
      dictKey: "xxl",
      dictValue: "特大",
      sort: 2,
      isSealed: 1,
    });
    const select = (await server.call("GET", "/api/blade-system/dict/dictionary?code=size", admin)).json()
      .data;
    assert.deepEqual(
      select.map((i: { dictKey: string }) => i.dictKey),
      ["s"],
    );
    const parents = (await server.call("GET", "/api/blade-system/dict/parent-list?code=size", admin)).json()
      .data;
    assert.equal(parents.total, 1);
    assert.equal(parents.records[0].id, root);
    assert.equal(parents.records[0].isSealedName, "否");
    const children = (
      await server.call("GET", `/api/blade-system/dict/child-list?parentId=${root}`, admin)
    ).json().data;
    assert.deepEqual(
      children.map((i: { dictKey: string }) => i.dictKey),
      ["s", "xxl"],
    );
    // The items pane exports that dictionary's items only, not every dictionary's.
    const exported = await server.call("GET", `/api/blade-system/dict/export?parentId=${root}`, admin);
    assert.equal(exported.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const keyColumn = (sheet.getRow(1).values as unknown[]).indexOf("字典键值");
    const keys: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) keys.push(String((row.values as unknown[])[keyColumn]));
    });
    assert.deepEqual(keys.sort(), ["s", "xxl"]);
  });

  test("a dictionary-backed field accepts only the dictionary's keys", async () => {
    const bad = await submit("post", { category: 9, postCode: "p9", postName: "岗位", sort: 1 });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^category: \[9\] 不是字典 post_category 的有效值/);
    const good = await submit("post", { category: 2, postCode: "p2", postName: "岗位", sort: 1 });
    assert.equal(good.statusCode, 200);
  });

  test("business dictionaries stay inside the tenant, even for the platform administrator", async () => {
    await addTenant(server.db, "500001");
    const role = await addRole(server.db, "500001", "admin");
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select $2::bigint + row_number() over (), m.id, $1 from sys_menu m where m.code like 'dictbiz%'`,
      [role, nextId()],
    );
    await addUser(server.db, { tenantId: "500001", account: "ops", password: "pw-ops", roleIds: [role] });
    const ops = (await server.login("ops", "pw-ops", "500001")).access_token;
    const root = await submit(
      "dict-biz",
      { parentId: "0", code: "ROOM_KIND", dictValue: "房型", sort: 1, isSealed: 0 },
      ops,
    );
    assert.equal(root.statusCode, 200, root.body);
    const mine = (
      await server.call("GET", "/api/blade-system/dict-biz/parent-list?code=ROOM_KIND", ops)
    ).json().data;
    assert.equal(mine.total, 1);
    const platform = (
      await server.call("GET", "/api/blade-system/dict-biz/parent-list?code=ROOM_KIND", admin)
    ).json().data;
    assert.equal(platform.total, 0);
    const detail = await server.call(
      "GET",
      `/api/blade-system/dict-biz/detail?id=${root.json().data.id}`,
      admin,
    );
    assert.equal(detail.statusCode, 404);
    // The new tenant has no copy of the platform's business dictionaries yet, so none leak across.
    const foreign = (
      await server.call("GET", "/api/blade-system/dict-biz/dictionary?code=MSG_RESULT", ops)
    ).json().data;
    assert.deepEqual(foreign, []);
  });
});
