import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { renderCaptcha } from "../src/modules/auth/captcha-image.ts";
import { FileLinks } from "../src/plugins/file-links.ts";
import { provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

describe("file upload (put-file)", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
  });
  after(() => server.close());

  const upload = (filename: string, content: Buffer, query = "") => {
    const body = multipartFile(filename, content);
    return server.inject({
      method: "POST",
      url: `/api/blade-resource/oss/endpoint/put-file${query}`,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
  };

  test("an avatar is stored and served back from its link", async () => {
    const png = renderCaptcha("AC234");
    const res = await upload("me.png", png, "?purpose=avatar");
    assert.equal(res.statusCode, 200, res.body);
    const { link, originalName } = res.json().data;
    assert.match(
      link,
      /^\/api\/blade-resource\/oss\/file\/upload\/\d{8}\/[0-9a-f]{32}\.png\?tenant=000000&expires=\d+&signature=[\w-]+$/,
    );
    assert.equal(originalName, "me.png");
    const served = await server.inject({ method: "GET", url: link });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers["content-type"], "image/png");
    assert.deepEqual(served.rawPayload, png);
  });

  test("wrong types, disguised files and oversized avatars are refused with reasons", async () => {
    assert.match((await upload("tool.exe", Buffer.from("MZ"))).json().msg, /^file: 不支持的文件类型/);
    assert.match((await upload("fake.png", Buffer.from("<svg/>"))).json().msg, /^file: 文件内容不是 \.png/);
    const big = Buffer.concat([renderCaptcha("AC234"), Buffer.alloc(600 * 1024)]);
    assert.equal(
      (await upload("big.png", big, "?purpose=avatar")).json().msg,
      "file: 头像大小不能超过 500kb",
    );
    const gif = Buffer.from("GIF89a....");
    assert.equal(
      (await upload("a.gif", gif, "?purpose=avatar")).json().msg,
      "file: 头像只能是 jpg 或 png 格式",
    );
    // A few hundred bytes that declare a picture of 100,000 × 100,000 pixels.
    const huge = Buffer.from(renderCaptcha("AC234"));
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    assert.equal(
      (await upload("huge.png", huge, "?purpose=avatar")).json().msg,
      "file: 图片尺寸超过上限 8192×8192",
    );
    const none = await server.inject({
      method: "POST",
      url: "/api/blade-resource/oss/endpoint/put-file",
      headers: { "blade-auth": `bearer ${token}`, "content-type": "multipart/form-data; boundary=x" },
      payload: "--x--\r\n",
    });
    assert.equal(none.statusCode, 400);
  });

  test("a stored file is served to its tenant or through a signed, unexpired link only", async () => {
    const png = renderCaptcha("AC234");
    const { link } = (await upload("me.png", png, "?purpose=avatar")).json().data as { link: string };
    const bare = link.slice(0, link.indexOf("?"));
    const name = bare.slice("/api/blade-resource/oss/file/".length);
    const get = (url: string, bearer?: string) =>
      server.inject({ method: "GET", url, headers: bearer ? { "blade-auth": `bearer ${bearer}` } : {} });

    assert.equal((await get(bare)).statusCode, 401);
    assert.equal((await get(bare, token)).statusCode, 200);
    const other = await provisionTenant(server, token, "别家物业");
    assert.equal((await get(bare, other.token)).statusCode, 404);

    const signed = await get(link);
    assert.equal(signed.statusCode, 200);
    assert.deepEqual(signed.rawPayload, png);
    const url = new URL(link, "http://x");
    const expires = Number(url.searchParams.get("expires"));
    const signature = url.searchParams.get("signature")!;
    const tampered = `${bare}?tenant=000000&expires=${expires}&signature=${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    assert.equal((await get(tampered)).statusCode, 401);
    assert.equal(
      (await get(`${bare}?tenant=000000&expires=${expires + 86_400}&signature=${signature}`)).statusCode,
      401,
    );
    // The older form of link, signed without its tenant, no longer reads anything.
    assert.equal((await get(`${bare}?expires=${expires}&signature=${signature}`)).statusCode, 401);
    const expired = new FileLinks(server.jwtSecret).sign("000000", name, Date.now() - 3 * 86_400_000);
    assert.equal((await get(expired)).statusCode, 401);
    const yesterdays = new FileLinks(server.jwtSecret).sign("000000", name, Date.now() - 86_400_000);
    assert.equal((await get(yesterdays)).statusCode, 200, "a link is good until the end of the next day");
    const foreignKey = new FileLinks("another server's secret, long enough").sign("000000", name);
    assert.equal((await get(foreignKey)).statusCode, 401);
  });

  test("a signed link reads its own tenant's file only: neither its tenant nor its path can be swapped", async () => {
    const other = await provisionTenant(server, token, "丙物业");
    const ours = (await upload("ours.png", renderCaptcha("AC234"), "?purpose=avatar")).json().data
      .link as string;
    const body = multipartFile("theirs.png", renderCaptcha("ZX987"));
    const theirs = (
      await server.inject({
        method: "POST",
        url: "/api/blade-resource/oss/endpoint/put-file?purpose=avatar",
        headers: { ...body.headers, "blade-auth": `bearer ${other.token}` },
        payload: body.payload,
      })
    ).json().data.link as string;
    assert.match(theirs, new RegExp(`\\?tenant=${other.tenantId}&expires=`));
    const parts = (link: string) => {
      const url = new URL(link, "http://x");
      return {
        path: url.pathname,
        query: url.search,
        name: url.pathname.slice("/api/blade-resource/oss/file/".length),
      };
    };
    const a = parts(ours);
    const b = parts(theirs);
    const get = (url: string) => server.inject({ method: "GET", url });
    assert.equal((await get(ours)).statusCode, 200);
    assert.equal((await get(theirs)).statusCode, 200);
    // Our signature on their path, or our path and signature naming their tenant: refused.
    assert.equal((await get(`${b.path}${a.query}`)).statusCode, 401);
    assert.equal(
      (await get(`${a.path}${a.query.replace("tenant=000000", `tenant=${other.tenantId}`)}`)).statusCode,
      401,
    );
    // A genuine signature for their tenant does not reach our file of that name: it is not theirs.
    const forThem = new FileLinks(server.jwtSecret).sign(other.tenantId, a.name);
    assert.equal((await get(forThem)).statusCode, 404);

    // Our bare link copied into their profile is handed back to them unsigned, so it reads nothing.
    const copied = await server.call("POST", "/api/blade-user/update-info", other.token, { avatar: a.path });
    assert.equal(copied.statusCode, 200, copied.body);
    const seen = (await server.call("GET", "/api/blade-user/info", other.token)).json().data.avatar as string;
    assert.equal(seen, a.path);
    assert.equal((await get(seen)).statusCode, 401);
    assert.equal(
      (await server.inject({ method: "GET", url: seen, headers: { "blade-auth": `bearer ${other.token}` } }))
        .statusCode,
      404,
    );
  });

  test("a tenant's login background, uploaded by the platform administrator, is served to its login page", async () => {
    const png = renderCaptcha("BG123");
    const { link } = (await upload("bg.png", png, "?purpose=avatar")).json().data as { link: string };
    const other = await provisionTenant(server, token, "丁物业");
    const [row] = await server.db.query<{ id: string }>("select id from sys_tenant where tenant_id = $1", [
      other.tenantId,
    ]);
    const saved = await server.call("POST", "/api/blade-system/tenant/submit", token, {
      id: row!.id,
      tenantName: "丁物业",
      domain: "https://ding.example.com",
      backgroundUrl: link,
    });
    assert.equal(saved.statusCode, 200, saved.body);
    const info = await server.inject({
      method: "GET",
      url: "/api/blade-system/tenant/info?domain=https://ding.example.com",
    });
    const background = info.json().data.backgroundUrl as string;
    assert.match(background, /\?tenant=000000&expires=\d+&signature=/);
    const served = await server.inject({ method: "GET", url: background });
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, png);
  });

  test("a profile keeps the bare link and hands out a freshly signed one", async () => {
    const { link } = (await upload("me.png", renderCaptcha("AC234"), "?purpose=avatar")).json().data as {
      link: string;
    };
    const bare = link.slice(0, link.indexOf("?"));
    const saved = await server.call("POST", "/api/blade-user/update-info", token, { avatar: link });
    assert.equal(saved.statusCode, 200, saved.body);
    const [row] = await server.db.query<{ avatar: string }>(
      "select avatar from sys_user where tenant_id = '000000' and account = 'admin'",
    );
    assert.equal(row!.avatar, bare);
    const info = await server.call("GET", "/api/blade-user/info", token);
    assert.match(
      info.json().data.avatar,
      new RegExp(`^${bare.replaceAll(".", "\\.")}\\?tenant=000000&expires=\\d+&signature=`),
    );
    const login = await server.login();
    assert.ok(login.avatar.startsWith(`${bare}?tenant=000000&expires=`), login.avatar);
  });
});
