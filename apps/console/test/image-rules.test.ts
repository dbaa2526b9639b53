import assert from "node:assert/strict";
import { test } from "node:test";
import { IMAGE_MAX_BYTES, imageProblem } from "../src/components/image-rules.ts";

test("images are jpg or png of at most 500 kb", () => {
  const png = { name: "me.PNG", type: "image/png", size: 1000 };
  assert.equal(imageProblem(png), null);
  assert.equal(imageProblem({ name: "me.jpeg", type: "image/jpeg", size: IMAGE_MAX_BYTES }), null);
  assert.equal(imageProblem({ ...png, size: IMAGE_MAX_BYTES + 1 }), "info.avatarSize");
  assert.equal(imageProblem({ name: "me.gif", type: "image/gif", size: 10 }), "info.avatarType");
  assert.equal(imageProblem({ name: "me.png", type: "text/plain", size: 10 }), "info.avatarType");
});
