import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { applyClientSecret } from "../src/db/seed.ts";
import { md5Hex } from "../src/modules/auth/password.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";

describe("the console client's secret set by the operator", () => {
  let server: TestServer;
  const operatorSecret = "c3Xr8Pw1Zk6Nv9Tq2Lm5";
  before(async () => {
    server = await startTestServer();
    // What a production start does with CLIENT_SECRET.
    await applyClientSecret(server.db, operatorSecret);
  });
  after(() => server.close());

  const signIn = (clientSecret: string) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", scope: "all", username: "admin", password: md5Hex(ADMIN_PASSWORD) },
      headers: {
        authorization: `Basic ${Buffer.from(`saber:${clientSecret}`).toString("base64")}`,
        "tenant-id": "000000",
      },
    });

  test("the published saber_secret stops working and the operator's one works", async () => {
    const published = await signIn("saber_secret");
    assert.equal(published.statusCode, 401);
    assert.equal(published.json().error, "invalid_client");
    assert.equal((await signIn(operatorSecret)).statusCode, 200);
  });

  test("only a hash of the operator's secret is stored", async () => {
    const [row] = await server.db.query<{ client_secret: string }>(
      "select client_secret from sys_client where client_id = 'saber'",
    );
    assert.match(row!.client_secret, /^sha256\$[0-9a-f]{64}$/);
    assert.ok(!row!.client_secret.includes(operatorSecret));
  });
});
