import assert from "node:assert/strict";
import { test } from "node:test";
import { signJwt, verifyJwt } from "./jwt.ts";

const secret = "s".repeat(40);
const claims = { jti: "abc", iat: 1_000, exp: 2_000, user_id: "42" };

test("a signed token verifies and yields its claims", () => {
  assert.deepEqual(verifyJwt(signJwt(claims, secret), secret, 1_500), claims);
});

test("expired, tampered, foreign and malformed tokens are rejected", () => {
  const token = signJwt(claims, secret);
  assert.equal(verifyJwt(token, secret, 2_000), undefined);
  assert.equal(verifyJwt(token, "x".repeat(40), 1_500), undefined);
  const [h, , s] = token.split(".");
  const forgedBody = Buffer.from(JSON.stringify({ ...claims, user_id: "1" })).toString("base64url");
  assert.equal(verifyJwt(`${h}.${forgedBody}.${s}`, secret, 1_500), undefined);
  assert.equal(verifyJwt("not.a.token", secret), undefined);
  assert.equal(verifyJwt("", secret), undefined);
});

test("the none algorithm is never accepted", () => {
  const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
  const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
  assert.equal(verifyJwt(`${header}.${body}.`, secret, 1_500), undefined);
});
