import assert from "node:assert/strict";
import { test } from "node:test";
import type { Suspicion } from "./evidence.ts";
import { kindPrecision, rankSuspects } from "./rank.ts";

const suspicion = (subject: string, kind: Suspicion["kind"], score: number): Suspicion => ({
  kind,
  subject,
  score,
  from: 0,
  to: 0,
  figures: [],
});

test("a meter suspected twice ranks above one suspected once as strongly", () => {
  const ranked = rankSuspects([
    suspicion("a", "relay-bypass", 0.6),
    suspicion("b", "relay-bypass", 0.6),
    suspicion("b", "sustained-drop", 0.5),
  ]);
  assert.deepEqual(
    ranked.map((entry) => entry.subject),
    ["b", "a"],
  );
  assert.ok(Math.abs(ranked[0]!.rank - (1 - 0.4 * 0.5)) < 1e-12);
});

test("verdicts move a kind of suspicion up or down the list", () => {
  const list = [suspicion("drop", "sustained-drop", 0.7), suspicion("leak", "night-flow", 0.6)];
  assert.equal(rankSuspects(list)[0]!.subject, "drop");
  const dismissedDrops = Array.from({ length: 6 }, () => ({
    kind: "sustained-drop" as const,
    state: "dismissed" as const,
  }));
  const confirmedLeaks = [{ kind: "night-flow" as const, state: "confirmed" as const }];
  assert.equal(rankSuspects(list, [...dismissedDrops, ...confirmedLeaks])[0]!.subject, "leak");
  assert.equal(kindPrecision(dismissedDrops).get("sustained-drop"), 1 / 8);
  assert.equal(kindPrecision(confirmedLeaks).get("night-flow"), 2 / 3);
});
