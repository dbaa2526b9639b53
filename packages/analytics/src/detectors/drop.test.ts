import assert from "node:assert/strict";
import { test } from "node:test";
import { sustainedDrop } from "./drop.ts";

const days = (count: number, value: number) => Array.from({ length: count }, () => value);
const series = (before: number, after: number) => [...days(28, before), ...days(7, after)];

test("a meter whose usage halved while its peers did not and its node lost about as much is a suspect", () => {
  const found = sustainedDrop({
    meterId: "301",
    firstDay: 0,
    daily: series(10, 4),
    peers: [series(8, 8), series(12, 11.5), series(6, 6.2)],
    nodeLoss: series(2, 8),
  });
  assert.ok(found);
  assert.equal(found.kind, "sustained-drop");
  assert.ok(found.score > 0.7, `score ${found.score}`);
  assert.equal(found.from, 28 * 86_400_000);
});

test("an empty room, a holiday for everyone, or a drop the node's loss does not show are not suspects", () => {
  const peers = [series(8, 8), series(12, 12)];
  // The room emptied: usage fell, but the node lost no more than before.
  const vacant = sustainedDrop({
    meterId: "a",
    firstDay: 0,
    daily: series(10, 0.5),
    peers,
    nodeLoss: series(2, 2),
  });
  assert.ok(!vacant || vacant.score < 0.1, `vacant room scored ${vacant?.score}`);
  // Everyone used less (a holiday): the peers explain it.
  assert.equal(
    sustainedDrop({ meterId: "b", firstDay: 0, daily: series(10, 5), peers: [series(8, 4), series(12, 6)] }),
    undefined,
  );
  // A small dip is no suspicion; a meter that was already near nothing is not judged.
  assert.equal(sustainedDrop({ meterId: "c", firstDay: 0, daily: series(10, 8), peers }), undefined);
  assert.equal(sustainedDrop({ meterId: "d", firstDay: 0, daily: series(0.5, 0), peers }), undefined);
  // Too short a history.
  assert.equal(sustainedDrop({ meterId: "e", firstDay: 0, daily: days(20, 5), peers }), undefined);
});

test("among two meters that fell, the one whose drop the loss accounts for ranks first", () => {
  const peers = [series(8, 8)];
  const nodeLoss = series(1, 7);
  const thief = sustainedDrop({ meterId: "t", firstDay: 0, daily: series(10, 4), peers, nodeLoss });
  // The loss rose by 6 a day; the leaver stopped counting 28 a day: the rise does not account for it.
  const leaver = sustainedDrop({ meterId: "l", firstDay: 0, daily: series(30, 2), peers, nodeLoss });
  assert.ok(thief);
  assert.equal(leaver, undefined);
  const scored = { minScore: 0 };
  const leaverScored = sustainedDrop(
    { meterId: "l", firstDay: 0, daily: series(30, 2), peers, nodeLoss },
    scored,
  );
  assert.ok(leaverScored && leaverScored.score < 0.2 && thief.score > leaverScored.score);
});
