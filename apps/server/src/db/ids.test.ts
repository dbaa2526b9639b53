import assert from "node:assert/strict";
import { test } from "node:test";
import { nextId } from "./ids.ts";

test("ids are unique, increasing, 64-bit decimal strings", () => {
  const ids = Array.from({ length: 20_000 }, nextId);
  assert.equal(new Set(ids).size, ids.length);
  for (let i = 1; i < ids.length; i++) assert.ok(BigInt(ids[i]!) > BigInt(ids[i - 1]!));
  assert.ok(BigInt(ids.at(-1)!) < 2n ** 63n);
  assert.ok(BigInt(ids[0]!) > 2n ** 53n, "beyond JS number precision, so they must travel as strings");
});
