import assert from "node:assert/strict";
import { test } from "node:test";
import { AVATAR_MAX_BYTES, avatarProblem, phoneProblem } from "../src/pages/info/profile-rules.ts";

test("the phone helper checks presence, then length, then format (spec §5)", () => {
  assert.equal(phoneProblem(undefined), "info.phoneRequired");
  assert.equal(phoneProblem("  "), "info.phoneRequired");
  assert.equal(phoneProblem("1380013800"), "info.phoneLength");
  assert.equal(phoneProblem("138001380000"), "info.phoneLength");
  assert.equal(phoneProblem("12800138000"), "info.phoneFormat");
  assert.equal(phoneProblem("1380013800a"), "info.phoneFormat");
  assert.equal(phoneProblem("13800138000"), null);
});

test("avatars are jpg or png of at most 500 kb", () => {
  const png = { name: "me.PNG", type: "image/png", size: 1000 };
  assert.equal(avatarProblem(png), null);
  assert.equal(avatarProblem({ name: "me.jpeg", type: "image/jpeg", size: AVATAR_MAX_BYTES }), null);
  assert.equal(avatarProblem({ ...png, size: AVATAR_MAX_BYTES + 1 }), "info.avatarSize");
  assert.equal(avatarProblem({ name: "me.gif", type: "image/gif", size: 10 }), "info.avatarType");
  assert.equal(avatarProblem({ name: "me.png", type: "text/plain", size: 10 }), "info.avatarType");
});
