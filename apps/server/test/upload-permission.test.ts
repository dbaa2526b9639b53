import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { renderCaptcha } from "../src/modules/auth/captcha-image.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

const ENDPOINT = "/api/blade-resource/oss/endpoint";
const KB = 1024;

describe("uploads need the upload permission and fit the tenant's quota", () => {
  let server: TestServer;
  let admin: string;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let tenantRowId: string;

  /** A user of the tenant whose role holds exactly the menus and buttons of these codes. */
  const userHolding = async (...codes: string[]) => {
    const alias = `r${nextId()}`;
    const role = await addRole(server.db, tenant.tenantId, alias);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select $2::bigint + row_number() over (), m.id, $1 from sys_menu m
        where m.is_deleted = 0 and m.code = any($3::text[])`,
      [role, nextId(), codes],
    );
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: alias,
      password: "pw-upload",
      roleIds: [role],
    });
    return (await server.login(alias, "pw-upload", tenant.tenantId)).access_token;
  };
  const upload = (token: string, filename: string, content: Buffer, path = "put-file") => {
    const body = multipartFile(filename, content);
    return server.inject({
      method: "POST",
      url: `${ENDPOINT}/${path}`,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
  };
  const stored = async () =>
    (
      await server.db.query<{ n: number }>(
        "select count(*)::int as n from blade_attach where tenant_id = $1",
        [tenant.tenantId],
      )
    )[0]!.n;
  /** Sets the tenant's quota the way the platform administrator does: the tenant form. */
  const setQuota = async (quota: { storageQuota?: number | null; fileQuota?: number | null }) => {
    const res = await server.call("POST", "/api/blade-system/tenant/submit", admin, {
      id: tenantRowId,
      tenantName: "传件物业",
      ...quota,
    });
    assert.equal(res.statusCode, 200, res.body);
  };
  const clearFiles = () =>
    server.db.query("delete from blade_attach where tenant_id = $1", [tenant.tenantId]);

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "传件物业");
    const [row] = await server.db.query<{ id: string }>("select id from sys_tenant where tenant_id = $1", [
      tenant.tenantId,
    ]);
    tenantRowId = row!.id;
  });
  after(() => server.close());

  test("a user whose role holds no menus is refused, naming the permission; an own avatar is allowed", async () => {
    const nobody = await userHolding();
    for (const path of ["put-file", "put-file-attach"]) {
      const res = await upload(nobody, "notes.txt", Buffer.from("not mine to store"), path);
      assert.equal(res.statusCode, 403, `${path}: ${res.body}`);
      assert.match(res.json().msg, /^无权限上传文件: 需要.*\(oss_upload\).*\(attach_upload\)/);
    }
    // A picture that is not for the avatar needs the permission as well.
    const picture = await upload(nobody, "plan.png", renderCaptcha("AB123"));
    assert.equal(picture.statusCode, 403);
    assert.equal(await stored(), 0);

    const avatar = await upload(nobody, "me.png", renderCaptcha("AB123"), "put-file?purpose=avatar");
    assert.equal(avatar.statusCode, 200, avatar.body);
    const served = await server.inject({ method: "GET", url: avatar.json().data.link });
    assert.equal(served.statusCode, 200);
    await clearFiles();
  });

  test("the upload button is seeded under 对象存储, held by the tenant's administrator role", async () => {
    const [button] = await server.db.query<{ category: number; parent: string }>(
      `select b.category, p.code as parent from sys_menu b join sys_menu p on p.id = b.parent_id
        where b.code = 'oss_upload' and b.is_deleted = 0`,
    );
    assert.deepEqual(button, { category: 2, parent: "oss" });
    const held = await server.db.query(
      `select 1 from sys_role_menu rm join sys_menu m on m.id = rm.menu_id
        where rm.role_id = $1 and m.code = 'oss_upload'`,
      [tenant.roleId],
    );
    assert.equal(held.length, 1);
    const res = await upload(tenant.token, "admin.txt", Buffer.from("the tenant's admin uploads"));
    assert.equal(res.statusCode, 200, res.body);
    await clearFiles();
  });

  test("either storage screen's upload button lets a role upload, through both endpoints", async () => {
    for (const code of ["oss_upload", "attach_upload"]) {
      const token = await userHolding(code);
      for (const path of ["put-file", "put-file-attach"]) {
        const res = await upload(token, "granted.txt", Buffer.from(code), path);
        assert.equal(res.statusCode, 200, `${code} ${path}: ${res.body}`);
      }
    }
    assert.equal(await stored(), 4);
    await clearFiles();
  });

  test("a full file quota refuses the next upload before it is stored, naming the quota", async () => {
    await setQuota({ fileQuota: 2, storageQuota: null });
    assert.equal((await upload(tenant.token, "one.txt", Buffer.from("1"))).statusCode, 200);
    const two = await upload(tenant.token, "two.txt", Buffer.from("2"), "put-file-attach");
    assert.equal(two.statusCode, 200);
    const three = await upload(tenant.token, "three.txt", Buffer.from("3"));
    assert.equal(three.statusCode, 403, three.body);
    assert.equal(
      three.json().msg,
      "文件数已达额度: 本租户最多存放 2 个文件 (含上传中的), 已存满。请删除不再需要的附件, 或请平台管理员调高租户的文件数额度",
    );
    // The own avatar counts against the quota like any file.
    const avatar = await upload(tenant.token, "me.png", renderCaptcha("AB123"), "put-file?purpose=avatar");
    assert.equal(avatar.statusCode, 403);
    assert.equal(await stored(), 2);
    // Removing one makes room again.
    const removed = await server.call(
      "POST",
      `/api/blade-resource/attach/remove?ids=${two.json().data.attachId}`,
      tenant.token,
    );
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal((await upload(tenant.token, "three.txt", Buffer.from("3"))).statusCode, 200);
    await clearFiles();
  });

  test("a full storage quota refuses an upload that would pass it, naming the quota and the use", async () => {
    await setQuota({ storageQuota: 1, fileQuota: -1 });
    assert.equal((await upload(tenant.token, "a.txt", Buffer.alloc(600 * KB, 0x61))).statusCode, 200);
    const over = await upload(tenant.token, "b.txt", Buffer.alloc(600 * KB, 0x62));
    assert.equal(over.statusCode, 403, over.body);
    assert.match(
      over.json().msg,
      /^存储空间不足: 本租户存储额度 1 MB, 已用 0\.6 MB \(含上传中的\), 本次上传需 0\.6 MB。请删除不再需要的附件, 或请平台管理员调高租户的存储额度$/,
    );
    assert.equal(await stored(), 1);
    // What still fits is taken.
    assert.equal((await upload(tenant.token, "c.txt", Buffer.alloc(300 * KB, 0x63))).statusCode, 200);
    await clearFiles();
  });

  test("uploads racing at the quota's edge pass only as far as the quota goes", async () => {
    await setQuota({ fileQuota: 3, storageQuota: -1 });
    assert.equal((await upload(tenant.token, "first.txt", Buffer.from("1"))).statusCode, 200);
    const files = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        upload(tenant.token, `race${i}.txt`, Buffer.alloc(64 * KB, 0x61 + i)),
      ),
    );
    assert.deepEqual(files.map((res) => res.statusCode).sort(), [200, 200, 403, 403, 403, 403]);
    assert.equal(await stored(), 3);
    await clearFiles();

    await setQuota({ fileQuota: -1, storageQuota: 1 });
    const bytes = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        upload(tenant.token, `big${i}.txt`, Buffer.alloc(400 * KB, 0x61 + i)),
      ),
    );
    assert.deepEqual(bytes.map((res) => res.statusCode).sort(), [200, 200, 403, 403, 403]);
    const [used] = await server.db.query<{ bytes: number }>(
      "select coalesce(sum(attach_size), 0)::int as bytes from blade_attach where tenant_id = $1",
      [tenant.tenantId],
    );
    assert.equal(used!.bytes, 800 * KB);
    // Nothing is held once the uploads are done: every reservation became a file or was given back.
    const held = await server.db.query("select 1 from storage_reservation where tenant_id = $1", [
      tenant.tenantId,
    ]);
    assert.equal(held.length, 0);
    await clearFiles();
  });

  test("a tenant without its own quota takes the platform's default; -1 lifts the limit", async () => {
    const [defaults] = await server.db.query<{ mb: string; files: string }>(
      `select max(param_value) filter (where param_key = 'storage.quotaMb') as mb,
              max(param_value) filter (where param_key = 'storage.fileQuota') as files
         from sys_param where tenant_id = '000000'`,
    );
    assert.deepEqual(defaults, { mb: "1024", files: "10000" });
    await setQuota({ fileQuota: null, storageQuota: null });
    await server.db.query("update sys_param set param_value = '1' where param_key = 'storage.fileQuota'");
    try {
      assert.equal((await upload(tenant.token, "one.txt", Buffer.from("1"))).statusCode, 200);
      const refused = await upload(tenant.token, "two.txt", Buffer.from("2"));
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().msg, /最多存放 1 个文件/);
      await setQuota({ fileQuota: -1 });
      assert.equal((await upload(tenant.token, "two.txt", Buffer.from("2"))).statusCode, 200);
    } finally {
      await server.db.query(
        "update sys_param set param_value = '10000' where param_key = 'storage.fileQuota'",
      );
    }
    await clearFiles();
  });

  test("the quota is the platform's to set: the tenant's own administrator cannot raise it", async () => {
    const res = await server.call("POST", "/api/blade-system/tenant/submit", tenant.token, {
      id: tenantRowId,
      tenantName: "传件物业",
      fileQuota: -1,
    });
    assert.equal(res.statusCode, 403);
  });
});
