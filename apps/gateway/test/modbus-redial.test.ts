import assert from "node:assert/strict";
import { test } from "node:test";
import { RedialBackoff } from "../src/modbus/redial-backoff.ts";

test("an unreachable Modbus TCP endpoint waits twice as long after each failure, up to the cap", () => {
  let now = 0;
  const backoff = new RedialBackoff(1_000, 5_000, () => now);
  assert.equal(backoff.due("a"), true, "never failed: dialled at once");
  assert.deepEqual(
    [1, 2, 3, 4, 5].map(() => backoff.failed("a")),
    [1_000, 2_000, 4_000, 5_000, 5_000],
  );
  assert.equal(backoff.due("a"), false);
  now = 4_999;
  assert.equal(backoff.due("a"), false, "the last wait (5 s) has not passed");
  now = 5_000;
  assert.equal(backoff.due("a"), true);
  assert.equal(backoff.due("b"), true, "another endpoint is not held back");
});

test("a connection that succeeds starts the waits afresh", () => {
  let now = 0;
  const backoff = new RedialBackoff(1_000, 60_000, () => now);
  backoff.failed("a");
  backoff.failed("a");
  backoff.succeeded("a");
  assert.equal(backoff.due("a"), true);
  assert.equal(backoff.failed("a"), 1_000);
  now = 999;
  assert.equal(backoff.due("a"), false);
});
