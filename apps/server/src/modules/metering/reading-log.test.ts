import assert from "node:assert/strict";
import { test } from "node:test";
import { GroupInsert, MAX_BATCH } from "./reading-log.db.ts";

test("rows added in the same turn share one statement; each caller waits for its own", async () => {
  const statements: number[][] = [];
  const group = new GroupInsert<number>(async (rows) => {
    statements.push([...rows]);
  });
  const count = MAX_BATCH * 2 + 5;
  await Promise.all(Array.from({ length: count }, (_, i) => group.add(i)));
  assert.deepEqual(
    statements.map((rows) => rows.length),
    [MAX_BATCH, MAX_BATCH, 5],
  );
  assert.deepEqual(
    statements.flat(),
    Array.from({ length: count }, (_, i) => i),
    "every row once, in order",
  );
  // A later row starts a batch of its own.
  await group.add(-1);
  assert.deepEqual(statements.at(-1), [-1]);
});

test("a failed statement fails every caller whose row it held, and no other", async () => {
  const group = new GroupInsert<string>(async (rows) => {
    if (rows.includes("bad")) throw new Error("constraint");
  });
  const first = [group.add("a"), group.add("bad")];
  const results = await Promise.allSettled(first);
  assert.deepEqual(
    results.map((r) => r.status),
    ["rejected", "rejected"],
  );
  await group.add("c");
});
