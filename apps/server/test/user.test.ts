import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { md5Hex } from "../src/modules/auth/password.ts";
import { provisionTenant } from "./fixtures.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

describe("users", () => {
  let server: TestServer;
  let admin: string;
  let roleUser: string;
  let rootDept: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    roleUser = "2";
    rootDept = "1";
  });
  after(() => server.close());

  const create = (body: Record<string, unknown>, token = admin) =>
    server.call("POST", "/api/blade-user/submit", token, {
      name: "n",
      realName: "r",
      roleId: roleUser,
      deptId: rootDept,
      ...body,
    });

  test("a created user signs in with its password; no answer ever carries a password", async () => {
    const res = await create({ account: "alice", password: "Alice-123", phone: "13800000001", sex: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const session = await server.login("alice", "Alice-123");
    assert.equal(session.account, "alice");
    const id = res.json().data.id;
    const detail = (await server.call("GET", `/api/blade-user/detail?id=${id}`, admin)).json().data;
    assert.equal(detail.account, "alice");
    assert.equal(detail.sexName, "女");
    assert.equal(detail.roleName, "用户");
    assert.equal(detail.deptName, "Meterline");
    const page = (await server.call("GET", "/api/blade-user/page?account=alice", admin)).body;
    const info = (await server.call("GET", "/api/blade-user/info", session.access_token)).body;
    for (const body of [JSON.stringify(detail), page, info]) assert.ok(!/password|scrypt/i.test(body), body);
    // The export shows the names people read, not the ids behind them.
    const exported = await server.call("GET", "/api/blade-user/export?account=alice", admin);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const values = (book.worksheets[0]!.getRow(2).values as unknown[]).map(String);
    assert.ok(
      values.includes("用户") && values.includes("Meterline") && values.includes("女"),
      values.join("|"),
    );
  });

  test("duplicate accounts, missing passwords, bad phones and foreign roles are refused by name", async () => {
    await create({ account: "bob", password: "pw-bob" });
    assert.equal((await create({ account: "bob", password: "x" })).json().msg, "当前用户 [bob] 已存在!");
    assert.equal((await create({ account: "carol" })).json().msg, "password: 不能为空");
    assert.match((await create({ account: "dan", password: "x", phone: "12" })).json().msg, /^phone: /);
    assert.match((await create({ account: "erin", password: "x", roleId: "999" })).json().msg, /^roleId: /);
  });

  test("a user cannot remove itself; removing another ends its sessions", async () => {
    const self = (await server.login()).user_id;
    assert.equal(
      (await server.call("POST", `/api/blade-user/remove?ids=${self}`, admin)).json().msg,
      "不能删除本账号!",
    );
    const id = (await create({ account: "frank", password: "pw-frank" })).json().data.id;
    const session = await server.login("frank", "pw-frank");
    assert.equal((await server.call("POST", `/api/blade-user/remove?ids=${id}`, admin)).statusCode, 200);
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", session.access_token)).statusCode,
      401,
    );
  });

  test("reset-password restores the initial password and grant changes roles, both signing the user out", async () => {
    const id = (await create({ account: "gina", password: "pw-gina" })).json().data.id;
    const before = await server.login("gina", "pw-gina");
    assert.equal(
      (await server.call("POST", `/api/blade-user/reset-password?userIds=${id}`, admin)).statusCode,
      200,
    );
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", before.access_token)).statusCode,
      401,
    );
    const after = await server.login("gina", "123456");
    assert.equal(
      (await server.call("POST", `/api/blade-user/grant?userIds=${id}&roleIds=1`, admin)).statusCode,
      200,
    );
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", after.access_token)).statusCode,
      401,
    );
    assert.equal((await server.login("gina", "123456")).role_name, "administrator");
  });

  test("one's own password and profile, with the old-password check", async () => {
    await create({ account: "hana", password: "pw-hana" });
    const token = (await server.login("hana", "pw-hana")).access_token;
    const change = (query: string) => server.call("POST", `/api/blade-user/update-password?${query}`, token);
    const wrongOld = await change(
      `oldPassword=${md5Hex("nope")}&newPassword=${md5Hex("n1")}&newPassword1=${md5Hex("n1")}`,
    );
    assert.equal(wrongOld.json().msg, "原密码不正确!");
    const mismatch = await change(
      `oldPassword=${md5Hex("pw-hana")}&newPassword=${md5Hex("n1")}&newPassword1=${md5Hex("n2")}`,
    );
    assert.equal(mismatch.json().msg, "请输入正确的确认密码!");
    const ok = await change(
      `oldPassword=${md5Hex("pw-hana")}&newPassword=${md5Hex("n1")}&newPassword1=${md5Hex("n1")}`,
    );
    assert.equal(ok.statusCode, 200);
    await server.login("hana", "n1");
    const profile = await server.call("POST", "/api/blade-user/update-info", token, {
      realName: "花",
      roleId: "1",
      account: "root",
    });
    assert.equal(profile.statusCode, 200);
    const [row] = await server.db.query<{ real_name: string; role_id: string; account: string }>(
      "select real_name, role_id, account from sys_user where account = 'hana'",
    );
    assert.deepEqual(row, { real_name: "花", role_id: "2", account: "hana" });
  });

  test("unlock clears a locked account", async () => {
    const id = (await create({ account: "ivan", password: "pw-ivan" })).json().data.id;
    const attempt = (password: string) =>
      server.inject({
        method: "POST",
        url: "/api/blade-auth/oauth/token",
        query: { grant_type: "password", username: "ivan", password: md5Hex(password), tenantId: "000000" },
        headers: { authorization: BASIC, "tenant-id": "000000" },
      });
    for (let i = 0; i < 5; i++) await attempt("bad");
    assert.equal((await attempt("pw-ivan")).json().error_description, "登录错误次数过多,请稍后再试");
    assert.equal((await server.call("POST", `/api/blade-user/unlock?userIds=${id}`, admin)).statusCode, 200);
    assert.equal((await attempt("pw-ivan")).statusCode, 200);
  });

  test("listing by dept includes the depts below it", async () => {
    const parent = (
      await server.call("POST", "/api/blade-system/dept/submit", admin, { deptName: "总部", deptCategory: 1 })
    ).json().data.id;
    const child = (
      await server.call("POST", "/api/blade-system/dept/submit", admin, {
        deptName: "一组",
        deptCategory: 3,
        parentId: parent,
      })
    ).json().data.id;
    await create({ account: "jack", password: "x", deptId: child });
    await create({ account: "kate", password: "x", deptId: parent });
    const page = (await server.call("GET", `/api/blade-user/page?deptId=${parent}&size=50`, admin)).json()
      .data;
    assert.deepEqual(page.records.map((r: { account: string }) => r.account).sort(), ["jack", "kate"]);
    const only = (await server.call("GET", `/api/blade-user/page?deptId=${child}`, admin)).json().data;
    assert.deepEqual(
      only.records.map((r: { account: string }) => r.account),
      ["jack"],
    );
  });

  test("a tenant's quota caps its accounts", async () => {
    const { token, roleId, deptId } = await provisionTenant(server, admin, "小租户", 2);
    const add = (account: string) =>
      server.call("POST", "/api/blade-user/submit", token, {
        account,
        password: "pw",
        name: "n",
        realName: "r",
        roleId,
        deptId,
      });
    assert.equal((await add("one")).statusCode, 200);
    assert.equal((await add("two")).json().msg, "当前租户已到最大账号额度!");
    // Another tenant's user is out of reach by id.
    const [alice] = await server.db.query<{ id: string }>("select id from sys_user where account = 'alice'");
    assert.equal((await server.call("GET", `/api/blade-user/detail?id=${alice!.id}`, token)).statusCode, 404);
    const update = await server.call("POST", "/api/blade-user/submit", token, {
      id: alice!.id,
      realName: "x",
    });
    assert.equal(update.statusCode, 404);
  });

  test("a production server resets to no weak initial password: 123456 is refused until the tenant sets a strong one", async () => {
    const production = await startTestServer({ production: true });
    try {
      const token = (await production.login()).access_token;
      const id = (
        await production.call("POST", "/api/blade-user/submit", token, {
          account: "hana",
          password: "Tq9!vR2m#Lx7",
          name: "n",
          realName: "r",
          roleId: roleUser,
          deptId: rootDept,
        })
      ).json().data.id;
      const refused = await production.call("POST", `/api/blade-user/reset-password?userIds=${id}`, token);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.json().msg, /^account\.initPassword: /);
      assert.ok((await production.login("hana", "Tq9!vR2m#Lx7")).access_token, "the password is unchanged");

      const param = await production.db.query<{ id: string }>(
        "select id::text as id from sys_param where param_key = 'account.initPassword' and tenant_id = '000000'",
      );
      const saved = await production.call("POST", "/api/blade-system/param/submit", token, {
        id: param[0]!.id,
        paramName: "用户初始密码",
        paramKey: "account.initPassword",
        paramValue: "Wm4#pZ8q!Ncv",
      });
      assert.equal(saved.statusCode, 200, saved.body);
      const reset = await production.call("POST", `/api/blade-user/reset-password?userIds=${id}`, token);
      assert.equal(reset.statusCode, 200, reset.body);
      assert.ok((await production.login("hana", "Wm4#pZ8q!Ncv")).access_token);
    } finally {
      await production.close();
    }
  });
});
