import assert from "node:assert/strict";
import { test } from "node:test";
import { asMd5, hashPassword, md5Hex, verifyPassword } from "./password.ts";

test("md5Hex matches the digest the console sends", () => {
  assert.equal(md5Hex("admin"), "21232f297a57a5a743894a0e4a801fc3");
});

test("a stored hash is salted scrypt and verifies only the right password", async () => {
  const stored = await hashPassword(md5Hex("secret"));
  assert.match(stored, /^scrypt\$16384\$8\$1\$/);
  assert.notEqual(stored, await hashPassword(md5Hex("secret")), "salted: two hashes differ");
  assert.equal(await verifyPassword(md5Hex("secret"), stored), true);
  assert.equal(await verifyPassword(md5Hex("Secret"), stored), false);
  assert.equal(await verifyPassword(md5Hex("secret"), "sha1$abc"), false);
});

test("asMd5 keeps an md5 hex and digests anything else", () => {
  assert.equal(asMd5("21232F297A57A5A743894A0E4A801FC3"), "21232f297a57a5a743894a0e4a801fc3");
  assert.equal(asMd5("admin"), "21232f297a57a5a743894a0e4a801fc3");
});
