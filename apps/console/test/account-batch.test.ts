import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type Chunk,
  chunksOf,
  countsOf,
  retryFailed,
  runChunks,
} from "../src/pages/pms/meter/account/account-batch.ts";
import { meterLeaves, onlyMeters } from "../src/pages/pms/meter/account/meter-tree.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
const states = (chunks: readonly Chunk<string>[]) => chunks.map((c) => c.state).join(",");

test("meters are cut into chunks of twenty, the last one shorter", () => {
  const chunks = chunksOf<string>(ids(45));
  assert.deepEqual(
    chunks.map((c) => c.meterIds.length),
    [20, 20, 5],
  );
  assert.deepEqual(
    chunks.flatMap((c) => c.meterIds),
    ids(45),
  );
  assert.deepEqual(chunksOf<string>([]), []);
});

test("a refused chunk fails with the server's words; the others go on; counts are in meters", async () => {
  const sent: string[][] = [];
  const seen: string[] = [];
  const done = await runChunks<string>(
    chunksOf(ids(5), 2),
    async (meterIds) => {
      sent.push(meterIds);
      if (meterIds.includes("3")) throw new Error("meterIds: 表计 3 未开户");
      return meterIds.map((id) => `closed ${id}`);
    },
    (error) => (error as Error).message,
    () => false,
    (chunks) => seen.push(states(chunks)),
  );
  assert.deepEqual(sent, [["1", "2"], ["3", "4"], ["5"]]);
  assert.equal(states(done), "done,failed,done");
  assert.equal(done[1]?.reason, "meterIds: 表计 3 未开户");
  assert.deepEqual(done[0]?.results, ["closed 1", "closed 2"]);
  // Every step is shown: running then settled, one chunk at a time.
  assert.deepEqual(seen, [
    "running,waiting,waiting",
    "done,waiting,waiting",
    "done,running,waiting",
    "done,failed,waiting",
    "done,failed,running",
    "done,failed,done",
  ]);
  assert.deepEqual(countsOf(done), { total: 5, done: 3, failed: 2, waiting: 0, percent: 100 });

  // A retry sends only the failed chunk again.
  const again: string[][] = [];
  const retried = await runChunks<string>(
    retryFailed(done),
    async (meterIds) => {
      again.push(meterIds);
      return [];
    },
    String,
    () => false,
    () => undefined,
  );
  assert.deepEqual(again, [["3", "4"]]);
  assert.equal(states(retried), "done,done,done");
});

test("a cancel lets the chunk in flight finish and sends no more", async () => {
  let stop = false;
  const sent: string[][] = [];
  const chunks = await runChunks<string>(
    chunksOf(ids(6), 2),
    async (meterIds) => {
      sent.push(meterIds);
      // The operator presses stop while the first chunk is on its way.
      stop = true;
      return meterIds;
    },
    String,
    () => stop,
    () => undefined,
  );
  assert.deepEqual(sent, [["1", "2"]]);
  assert.equal(states(chunks), "done,waiting,waiting");
  assert.deepEqual(countsOf(chunks), { total: 6, done: 2, failed: 0, waiting: 4, percent: 33 });
});

test("a tree keeps only the meters of one kind and the branches above them", () => {
  const leaf = (id: string, type: string) => ({
    id,
    parentId: "r",
    title: `T${id}`,
    key: id,
    value: id,
    type,
    selectable: true,
  });
  const branch = (id: string, children: ReturnType<typeof leaf>[]) => ({
    id,
    parentId: "0",
    title: id,
    key: id,
    value: id,
    type: "room",
    selectable: false,
    children,
  });
  const tree = [
    branch("101", [leaf("e1", "meter"), leaf("w1", "water")]),
    branch("102", [leaf("e2", "meter")]),
  ];
  const water = onlyMeters(tree, "water");
  assert.deepEqual(
    water.map((n) => [n.id, (n.children ?? []).map((c) => c.id)]),
    [["101", ["w1"]]],
  );
  assert.deepEqual(
    [...meterLeaves(onlyMeters(tree, "meter")).entries()],
    [
      ["e1", "Te1"],
      ["e2", "Te2"],
    ],
  );
});
