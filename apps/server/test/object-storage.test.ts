import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { renderCaptcha } from "../src/modules/auth/captcha-image.ts";
import { S3Store } from "../src/modules/storage/s3-store.ts";
import { provisionTenant } from "./fixtures.ts";
import { freePort, multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { S3_KEY, startS3 } from "./s3-server.ts";

const OSS = "/api/blade-resource/oss";
const ATTACH = "/api/blade-resource/attach";

describe("object storage and attachments", () => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let token: string;
  before(async () => {
    s3 = await startS3(["first", "second"]);
    server = await startTestServer();
    token = (await server.login()).access_token;
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  const upload = (filename: string, content: Buffer, path = "put-file", as = token) => {
    const body = multipartFile(filename, content);
    return server.inject({
      method: "POST",
      url: `${OSS}/endpoint/${path}`,
      headers: { ...body.headers, "blade-auth": `bearer ${as}` },
      payload: body.payload,
    });
  };
  const get = (url: string, headers: Record<string, string> = {}, as = token) =>
    server.inject({ method: "GET", url, headers: { ...headers, "blade-auth": `bearer ${as}` } });
  const addS3 = async (ossCode: string, bucketName: string, endpoint = s3.endpoint) => {
    const res = await server.call("POST", `${OSS}/submit`, token, {
      category: 1,
      ossCode,
      endpoint,
      bucketName,
      accessKey: S3_KEY,
      secretKey: S3_KEY,
      pathStyle: 1,
    });
    assert.equal(res.statusCode, 200, res.body);
    const [row] = await server.db.query<{ id: string }>("select id from blade_oss where oss_code = $1", [
      ossCode,
    ]);
    return row!.id;
  };
  const enable = (id: string, as = token) => server.call("POST", `${OSS}/enable?id=${id}`, as);
  const bucket = (name: string) =>
    new S3Store({
      endpoint: s3.endpoint,
      bucket: name,
      region: "",
      accessKey: S3_KEY,
      secretKey: S3_KEY,
      pathStyle: true,
    });
  const attachOf = async (id: string) =>
    (
      await server.db.query<{ oss_id: string | null; object_key: string; attach_size: number }>(
        "select oss_id, object_key, attach_size from blade_attach where id = $1",
        [id],
      )
    )[0];

  let localLink = "";
  let firstId = "";
  let bigAttach = "";
  const big = randomBytes(6 * 1024 * 1024 + 123);

  test("with no storage enabled a file goes to the server's disk and is an attachment", async () => {
    const png = renderCaptcha("AB123");
    const res = await upload("me.png", png);
    assert.equal(res.statusCode, 200, res.body);
    localLink = res.json().data.link;
    const served = await get(localLink);
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, png);
    const list = (await get(`${ATTACH}/list?originalName=me`)).json().data;
    assert.equal(list.total, 1);
    assert.equal(list.records[0].originalName, "me.png");
    assert.equal(list.records[0].attachSize, png.length);
    assert.equal((await attachOf(list.records[0].id))!.oss_id, null);
  });

  test("an S3 configuration keeps its secret encrypted and answers it masked", async () => {
    firstId = await addS3("s3-first", "first");
    const [stored] = await server.db.query<{ secret_key: string }>(
      "select secret_key from blade_oss where id = $1",
      [firstId],
    );
    assert.notEqual(stored!.secret_key, S3_KEY);
    const detail = (await get(`${OSS}/detail?id=${firstId}`)).json().data;
    assert.notEqual(detail.secretKey, S3_KEY);
    assert.match(detail.secretKey, /\*{4}/);
    const missing = await server.call("POST", `${OSS}/submit`, token, {
      category: 1,
      ossCode: "half",
      endpoint: s3.endpoint,
    });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().msg, /^bucketName: /);
  });

  test("enabled S3 storage takes uploads in parts, serves them whole and by range", async () => {
    assert.equal((await enable(firstId)).statusCode, 200);
    const res = await upload("readings.txt", big, "put-file-attach");
    assert.equal(res.statusCode, 200, res.body);
    bigAttach = res.json().data.attachId;
    const row = await attachOf(bigAttach);
    assert.equal(row!.oss_id, firstId);
    assert.equal(row!.attach_size, big.length);
    assert.equal(await bucket("first").size(row!.object_key), big.length);

    const whole = await get(`${ATTACH}/download?id=${bigAttach}`);
    assert.equal(whole.statusCode, 200);
    assert.equal(whole.headers["accept-ranges"], "bytes");
    assert.ok(whole.rawPayload.equals(big));
    const part = await get(`${ATTACH}/download?id=${bigAttach}`, { range: "bytes=100-199" });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers["content-range"], `bytes 100-199/${big.length}`);
    assert.ok(part.rawPayload.equals(big.subarray(100, 200)));
    const tail = await get(`${ATTACH}/download?id=${bigAttach}`, { range: "bytes=-10" });
    assert.ok(tail.rawPayload.equals(big.subarray(big.length - 10)));
    const outside = await get(`${ATTACH}/download?id=${bigAttach}`, { range: `bytes=${big.length}-` });
    assert.equal(outside.statusCode, 416);
    // The file written to disk before S3 was enabled is still served from there.
    assert.equal((await get(localLink)).statusCode, 200);
  });

  test("an unreachable storage is refused on enable and the enabled one stays", async () => {
    const deadId = await addS3("s3-dead", "first", `http://127.0.0.1:${await freePort()}`);
    const res = await enable(deadId);
    assert.equal(res.statusCode, 400);
    assert.match(res.json().msg, /^id: 无法连接该对象存储/);
    const status = await server.db.query<{ id: string; status: number }>(
      "select id, status from blade_oss where status = 2 and tenant_id = '000000'",
    );
    assert.deepEqual(
      status.map((r) => r.id),
      [firstId],
    );
    assert.equal((await upload("still.txt", Buffer.from("works"))).statusCode, 200);
  });

  test("switching storage leaves the links of stored files working", async () => {
    const secondId = await addS3("s3-second", "second");
    assert.equal((await enable(secondId)).statusCode, 200);
    const res = await upload("new.txt", Buffer.from("in the second bucket"), "put-file-attach");
    assert.equal((await attachOf(res.json().data.attachId))!.oss_id, secondId);
    const old = await get(`${ATTACH}/download?id=${bigAttach}`);
    assert.ok(old.rawPayload.equals(big));
    assert.equal((await get(localLink)).statusCode, 200);
    assert.equal((await get(res.json().data.link)).body, "in the second bucket");
  });

  test("another tenant neither sees nor touches these files and settings", async () => {
    const other = await provisionTenant(server, token, "邻居物业");
    assert.equal((await get(`${ATTACH}/download?id=${bigAttach}`, {}, other.token)).statusCode, 404);
    assert.equal((await get(`${ATTACH}/detail?id=${bigAttach}`, {}, other.token)).json().data?.id, undefined);
    assert.equal(
      (await server.call("POST", `${ATTACH}/remove?ids=${bigAttach}`, other.token)).statusCode,
      404,
    );
    assert.equal((await enable(firstId, other.token)).statusCode, 404);
    assert.equal((await get(`${ATTACH}/list`, {}, other.token)).json().data.total, 0);
    assert.equal((await get(localLink.split("?")[0]!, {}, other.token)).statusCode, 404);
    // Its own uploads go to its own default storage, not to this tenant's bucket.
    const own = await upload("theirs.txt", Buffer.from("x"), "put-file", other.token);
    assert.equal(own.statusCode, 200, own.body);
    const [theirs] = await server.db.query<{ tenant_id: string; oss_id: string | null }>(
      "select tenant_id, oss_id from blade_attach where name = $1",
      [own.json().data.name],
    );
    assert.deepEqual(theirs, { tenant_id: other.tenantId, oss_id: null });
  });

  test("removing an attachment removes its object; an object already gone is no error", async () => {
    const row = await attachOf(bigAttach);
    const removed = await server.call("POST", `${ATTACH}/remove?ids=${bigAttach}`, token);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(await bucket("first").size(row!.object_key), undefined);
    assert.equal((await get(`${ATTACH}/download?id=${bigAttach}`)).statusCode, 404);

    const again = (await upload("gone.txt", Buffer.from("soon gone"), "put-file-attach")).json().data
      .attachId;
    const gone = await attachOf(again);
    await bucket("second").remove(gone!.object_key);
    assert.equal((await server.call("POST", `${ATTACH}/remove?ids=${again}`, token)).statusCode, 200);
  });

  test("bad names, kinds and sizes are refused naming the field, and nothing is stored", async () => {
    const before = (await server.db.query<{ n: number }>("select count(*)::int as n from blade_attach"))[0]!
      .n;
    for (const name of ["../escape.txt", "a/b.txt", "a\\b.txt", "nul\u0000.txt", ".."]) {
      const res = await upload(name, Buffer.from("x"));
      assert.equal(res.statusCode, 400, name);
      assert.match(res.json().msg, /^file: /, name);
    }
    assert.match((await upload("tool.exe", Buffer.from("MZ"))).json().msg, /^file: 不支持的文件类型/);
    const over = await upload("huge.txt", Buffer.alloc(10 * 1024 * 1024 + 10, 0x61));
    assert.equal(over.statusCode, 400);
    assert.equal(over.json().msg, "file: 文件不能超过 10MB");
    const after = (await server.db.query<{ n: number }>("select count(*)::int as n from blade_attach"))[0]!.n;
    assert.equal(after, before);

    const id = (await upload("fine.txt", Buffer.from("x"), "put-file-attach")).json().data.attachId;
    const rename = await server.call("POST", `${ATTACH}/submit`, token, {
      id,
      originalName: "../../etc/passwd",
    });
    assert.equal(rename.statusCode, 400);
    assert.match(rename.json().msg, /^originalName: /);
    assert.equal((await get("/api/blade-resource/oss/file/upload/../../secrets.json")).statusCode, 404);
  });
});
