import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { spreadOverBuses } from "./bus-order.ts";

const bus = (item: { bus: string | null }) => item.bus;

describe("spreadOverBuses", () => {
  it("takes one meter of each bus in turn, the bus-less ones last", () => {
    const items = [
      { id: 1, bus: "a" },
      { id: 2, bus: "a" },
      { id: 3, bus: "a" },
      { id: 4, bus: "b" },
      { id: 5, bus: null },
      { id: 6, bus: "c" },
      { id: 7, bus: "b" },
    ];
    assert.deepEqual(
      spreadOverBuses(items, bus).map((item) => item.id),
      [1, 4, 6, 2, 7, 3, 5],
    );
  });

  it("keeps every meter exactly once, each bus in its own order, and no bus twice before all had one", () => {
    const item = fc.record({
      id: fc.nat(),
      bus: fc.option(fc.constantFrom("a", "b", "c", "d"), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        const ordered = spreadOverBuses(items, bus);
        assert.equal(ordered.length, items.length);
        assert.deepEqual(new Set(ordered), new Set(items));
        for (const name of ["a", "b", "c", "d", null]) {
          assert.deepEqual(
            ordered.filter((x) => x.bus === name),
            items.filter((x) => x.bus === name),
          );
        }
        const buses = new Set(items.filter((x) => x.bus !== null).map((x) => x.bus));
        const head = ordered.slice(0, buses.size).map((x) => x.bus);
        assert.equal(new Set(head).size, buses.size, "the first round names every bus once");
      }),
    );
  });
});
