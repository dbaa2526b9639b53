import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { S3Store } from "../apps/server/src/modules/storage/s3-store.ts";
import { S3_KEY, startS3 } from "../apps/server/test/s3-server.ts";
import { apiHeaders, signIn, storedToken, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();
let s3: Awaited<ReturnType<typeof startS3>>;
before(async () => {
  s3 = await startS3(["avatars"]);
});
after(() => s3.close());

/** A 1×1 PNG: small, and real enough for the server's content check. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

test("with S3 storage enabled, an avatar uploaded in the profile is stored there and displayed", async () => {
  const { page } = suite.session;
  await signIn(page);
  const headers = apiHeaders((await storedToken(page)) ?? "");
  const base = `${suite.server.baseUrl}/api/blade-resource`;
  const saved = await page.request.post(`${base}/oss/submit`, {
    headers,
    data: {
      category: 1,
      ossCode: "e2e-s3",
      endpoint: s3.endpoint,
      bucketName: "avatars",
      accessKey: S3_KEY,
      secretKey: S3_KEY,
      pathStyle: 1,
    },
  });
  assert.equal(saved.status(), 200, await saved.text());
  const list = await (await page.request.get(`${base}/oss/list?ossCode=e2e-s3`, { headers })).json();
  const ossId = String(list.data.records[0].id);
  const enabled = await page.request.post(`${base}/oss/enable?id=${ossId}`, { headers });
  assert.equal(enabled.status(), 200, await enabled.text());

  // The storage screen shows which configuration is enabled.
  await page.goto("/resource/oss");
  await page.getByTestId("row-oss-enabled").waitFor();

  await page.goto("/info/index");
  await page.getByTestId("info-profile").waitFor();
  await page.getByTestId("info-profile").locator('input[type="file"]').setInputFiles({
    name: "me.png",
    mimeType: "image/png",
    buffer: PNG,
  });
  const avatar = page.getByTestId("info-avatar").locator("img");
  await page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="info-avatar"] img') as HTMLImageElement | null;
    return !!img?.src.includes("/api/blade-resource/oss/file/") && img.complete && img.naturalWidth === 1;
  });
  const src = (await avatar.getAttribute("src")) ?? "";
  const served = await page.request.get(src);
  assert.deepEqual(Buffer.from(await served.body()), PNG);

  // The bytes are in the bucket, under the attachment the upload recorded.
  const name = new URL(src, suite.server.baseUrl).pathname.replace("/api/blade-resource/oss/file/", "");
  const attach = await (await page.request.get(`${base}/attach/list?size=50`, { headers })).json();
  const row = attach.data.records.find((r: { name: string }) => r.name === name);
  assert.equal(String(row.ossId), ossId);
  const bucket = new S3Store({
    endpoint: s3.endpoint,
    bucket: "avatars",
    region: "",
    accessKey: S3_KEY,
    secretKey: S3_KEY,
    pathStyle: true,
  });
  assert.equal(await bucket.size(`000000/${name}`), PNG.length);
  bucket.close();
});
