import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { isProtected, localMoment, type ProtectionWindows, protectionEnds } from "./protection.ts";

const zone = "Asia/Shanghai";
/** An instant given as Shanghai wall-clock time (UTC+8, no daylight saving). */
const cst = (text: string) => new Date(`${text}+08:00`);

test("local moments are read in the tenant's zone", () => {
  assert.deepEqual(localMoment(cst("2026-11-28T23:30:00"), zone), {
    day: "2026-11-28",
    minute: 1410,
    weekday: 6,
  });
  assert.deepEqual(localMoment(new Date("2026-11-24T16:00:00Z"), zone), {
    day: "2026-11-25",
    minute: 0,
    weekday: 3,
  });
});

const night: ProtectionWindows = { times: [{ start: "22:00", end: "07:00" }], dates: [] };

test("a night window wraps past midnight", () => {
  assert.equal(isProtected(localMoment(cst("2026-11-24T23:00:00"), zone), night), true);
  assert.equal(isProtected(localMoment(cst("2026-11-24T06:59:00"), zone), night), true);
  assert.equal(isProtected(localMoment(cst("2026-11-24T07:00:00"), zone), night), false);
  assert.equal(isProtected(localMoment(cst("2026-11-24T21:59:00"), zone), night), false);
  assert.deepEqual(protectionEnds(cst("2026-11-24T23:00:00"), zone, night), cst("2026-11-25T07:00:00"));
  const noon = cst("2026-11-24T12:00:00");
  assert.equal(protectionEnds(noon, zone, night), noon, "outside every window the cut goes now");
  // The last seconds before a window opens are outside it.
  const late = cst("2026-11-24T21:59:30");
  assert.equal(protectionEnds(late, zone, night), late);
});

test("weekends and listed dates hold the cut to the next working midnight, then the night window", () => {
  const w: ProtectionWindows = {
    times: [{ start: "22:00", end: "07:00" }],
    dates: ["weekend", "2026-11-30"],
  };
  // Saturday noon → Sunday → Monday 30th listed → Tuesday 00:00 is inside the night → 07:00.
  assert.deepEqual(protectionEnds(cst("2026-11-28T12:00:00"), zone, w), cst("2026-12-01T07:00:00"));
});

test("windows that cover the whole day never release by themselves", () => {
  const always: ProtectionWindows = { times: [{ start: "00:00", end: "24:00" }], dates: [] };
  assert.equal(protectionEnds(cst("2026-11-24T12:00:00"), zone, always), null);
});

test("the release moment is outside every window and nothing earlier after the start is", () => {
  const arbTime = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
  fc.assert(
    fc.property(
      fc.array(
        fc.record({ start: arbTime, end: arbTime }).filter((s) => s.start !== s.end),
        { maxLength: 3 },
      ),
      fc.boolean(),
      fc.integer({ min: 0, max: 60 * 24 * 14 }),
      fc.integer({ min: 0, max: 59_999 }),
      (times, weekend, offsetMinutes, milliseconds) => {
        const w: ProtectionWindows = { times, dates: weekend ? ["weekend"] : [] };
        const at = new Date(cst("2026-11-23T00:00:00").getTime() + offsetMinutes * 60_000 + milliseconds);
        const ends = protectionEnds(at, zone, w);
        if (ends === null) return;
        assert.ok(ends.getTime() >= at.getTime());
        // Outside every window, the cut goes at once.
        if (!isProtected(localMoment(at, zone), w)) assert.equal(ends.getTime(), at.getTime());
        assert.equal(isProtected(localMoment(ends, zone), w), false);
        // Sample the minutes in between: each is protected.
        for (let t = at.getTime(); t < ends.getTime(); t += 97 * 60_000) {
          assert.equal(isProtected(localMoment(new Date(t), zone), w), true, new Date(t).toISOString());
        }
      },
    ),
    { numRuns: 200 },
  );
});
