import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { trustedProxies } from "../src/config.ts";
import { md5Hex } from "../src/modules/auth/password.ts";
import { ADMIN_PASSWORD, BASIC, startTestServer, type TestServer } from "./helpers.ts";

const LOCKED = "登录错误次数过多,请稍后再试";

/** Eight wrong passwords for admin from `attacker`, then admin's own password from `office`. */
async function lockThenSignIn(server: TestServer, headersOf: (client: string) => Record<string, string>) {
  const signIn = (password: string, client: string) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", scope: "all", username: "admin", password: md5Hex(password) },
      headers: { authorization: BASIC, "tenant-id": "000000", ...headersOf(client) },
      // Every request arrives from the balancer.
      remoteAddress: "10.9.0.2",
    });
  for (let i = 0; i < 8; i++) await signIn(`guess-${i}`, "203.0.113.7");
  return signIn(ADMIN_PASSWORD, "198.51.100.20");
}

const forwarded = (client: string) => ({ "x-forwarded-for": client });

describe("TRUST_PROXY: the client's address behind a balancer", () => {
  test("without it a forwarded address is not believed: the balancer's one address is locked for all", async () => {
    const server = await startTestServer();
    try {
      const answer = await lockThenSignIn(server, forwarded);
      assert.equal(answer.json().error_description, LOCKED);
    } finally {
      await server.close();
    }
  });

  describe("with the balancer trusted", () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ trustProxy: ["10.9.0.0/24"] });
    });
    after(() => server.close());

    test("an attacker's failures lock out the attacker's address only", async () => {
      const answer = await lockThenSignIn(server, forwarded);
      assert.equal(answer.statusCode, 200, answer.body);
    });
  });

  test("the setting lists addresses or ranges; anything that would believe every client is refused", () => {
    assert.deepEqual(trustedProxies("10.0.0.5, 10.9.0.0/24,loopback,::1"), [
      "10.0.0.5",
      "10.9.0.0/24",
      "loopback",
      "::1",
    ]);
    for (const bad of ["true", "*", "balancer.local", "10.0.0.0/24/1", "10.0.0.0/x"]) {
      assert.throws(() => trustedProxies(bad), /TRUST_PROXY/, bad);
    }
  });
});
