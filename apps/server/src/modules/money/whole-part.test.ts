import assert from "node:assert/strict";
import { test } from "node:test";
import { wholePart } from "./account.repository.ts";

test("a charge priced whole in one part keeps it on its entry; any other keeps its parts' rows", () => {
  const flat = [{ part: "flat", usage: 400n, charge: 235n }];
  assert.equal(wholePart(flat, 400n, -235n), "flat");
  assert.equal(wholePart([{ part: "tier2", usage: 50n, charge: 40n }], 50n, -40n), "tier2");
  // Two parts (a ladder's step into the next tier, or two bands): rows.
  assert.equal(
    wholePart(
      [
        { part: "tier1", usage: 30n, charge: 15n },
        { part: "tier2", usage: 20n, charge: 16n },
      ],
      50n,
      -31n,
    ),
    null,
  );
  // One part that is not the whole entry (bands that do not add up to the total register): rows.
  assert.equal(wholePart([{ part: "peak", usage: 90n, charge: 60n }], 100n, -60n), null);
  assert.equal(wholePart([{ part: "peak", usage: 100n, charge: 59n }], 100n, -60n), null);
  // No parts, or no usage (a monthly fee): nothing to keep.
  assert.equal(wholePart([], 100n, -60n), null);
  assert.equal(wholePart(flat, undefined, -235n), null);
  assert.equal(wholePart(flat, null, -235n), null);
});
