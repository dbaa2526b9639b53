import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { renderCaptcha } from "../src/modules/auth/captcha-image.ts";
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
    assert.match(link, /^\/api\/blade-resource\/oss\/file\/upload\/\d{8}\/[0-9a-f]{32}\.png$/);
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
    const none = await server.inject({
      method: "POST",
      url: "/api/blade-resource/oss/endpoint/put-file",
      headers: { "blade-auth": `bearer ${token}`, "content-type": "multipart/form-data; boundary=x" },
      payload: "--x--\r\n",
    });
    assert.equal(none.statusCode, 400);
  });
});
