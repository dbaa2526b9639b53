import assert from "node:assert/strict";
import { test } from "node:test";
import { concerns, type LiveChange } from "../src/app/live-change.ts";

const change = (kind: LiveChange["kind"], meterIds: string[] | null): LiveChange => ({ kind, meterIds });
const all = ["supply", "balance", "command"] as const;

test("a page reads itself again for a change of one of its meters, of a kind it shows", () => {
  assert.equal(concerns(change("supply", ["7", "8"]), ["8"], all), true);
  assert.equal(concerns(change("supply", ["7"]), ["8"], all), false, "another meter's change");
  assert.equal(
    concerns(change("command", ["8"]), ["8"], ["supply", "balance"]),
    false,
    "a kind it does not show",
  );
});

test("a change too large to name its meters, and a resync, reach every page", () => {
  assert.equal(concerns(change("balance", null), ["8"], all), true);
  assert.equal(concerns(change("resync", null), ["8"], ["command"]), true);
  assert.equal(concerns(change("command", ["1"]), "all", ["command"]), true, "a list of every meter");
  assert.equal(concerns(change("balance", ["1"]), "all", ["command"]), false);
});
