import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bandsUsed,
  channelList,
  channelText,
  datesProblem,
  datesText,
  dayCoverage,
  ladderProblem,
  parseDates,
  parseTiers,
  slotsProblem,
  slotsText,
  tiersText,
  windowsProblem,
} from "../src/pages/pms/scheme/scheme-json.ts";

const ladder = (...tiers: [string | null, string][]) =>
  JSON.stringify(tiers.map(([limit, price]) => ({ limit, price })));

test("a ladder has 2–8 tiers with rising limits, the last one open", () => {
  assert.equal(ladderProblem(ladder(["2880", "0.4883"], ["4800", "0.5383"], [null, "0.7883"])), null);
  assert.deepEqual(ladderProblem(ladder([null, "0.5"])), {
    key: "scheme.ladder.count",
    vars: { min: 2, max: 8 },
  });
  assert.deepEqual(ladderProblem(ladder(["100", "0.5"], ["100", "0.6"], [null, "0.7"])), {
    key: "scheme.ladder.rising",
    vars: { n: 2 },
  });
  // Exact comparison: 100.1 is above 100.09 although both round alike as floats of 2 digits.
  assert.equal(ladderProblem(ladder(["100.09", "0.5"], ["100.1", "0.6"], [null, "0.7"])), null);
  assert.deepEqual(ladderProblem(ladder(["abc", "0.5"], [null, "0.6"])), {
    key: "scheme.ladder.limit",
    vars: { n: 1 },
  });
  assert.deepEqual(ladderProblem(ladder(["10", "0.12345"], [null, "0.6"])), {
    key: "scheme.ladder.price",
    vars: { n: 1 },
  });
  // An empty ladder is two blank tiers: the first blank is named.
  assert.deepEqual(ladderProblem(undefined), { key: "scheme.ladder.limit", vars: { n: 1 } });
});

test("tiers round-trip through their JSON, the last tier always open", () => {
  const tiers = parseTiers(ladder(["10", "0.5"], ["20", "0.6"]));
  assert.equal(tiers[1]?.limit, null, "a stored limit on the last tier is dropped");
  assert.equal(tiersText(tiers), ladder(["10", "0.5"], [null, "0.6"]));
  assert.deepEqual(parseTiers("not json"), [
    { limit: "", price: "" },
    { limit: null, price: "" },
  ]);
});

const slots = (...list: [string, string, string][]) =>
  JSON.stringify(list.map(([start, end, band]) => ({ start, end, band })));

test("time-of-use slots cover the day exactly once; a slot may wrap past midnight", () => {
  assert.equal(slotsProblem(slots(["08:00", "22:00", "peak"], ["22:00", "08:00", "low"])), null);
  assert.equal(slotsProblem(slots(["00:00", "24:00", "peace"])), null);
  assert.deepEqual(slotsProblem(slots(["08:00", "22:00", "peak"])), {
    key: "scheme.tou.gap",
    vars: { at: "00:00" },
  });
  assert.deepEqual(slotsProblem(slots(["08:00", "23:00", "peak"], ["22:00", "08:00", "low"])), {
    key: "scheme.tou.overlap",
    vars: { n: 2, m: 1 },
  });
  assert.deepEqual(slotsProblem(slots(["08:00", "08:00", "peak"])), {
    key: "scheme.tou.time",
    vars: { n: 1 },
  });
  assert.deepEqual(slotsProblem(slots(["08:00", "09:00", ""])), {
    key: "scheme.tou.bandMissing",
    vars: { n: 1 },
  });
  assert.deepEqual(slotsProblem(""), { key: "scheme.tou.count", vars: { max: 14 } });
  assert.equal(slotsText([]), "", "no slots are sent as nothing");
});

test("the day bar shows each band's stretch, gaps and overlaps", () => {
  const coverage = dayCoverage([
    { start: "22:00", end: "06:00", band: "low" },
    { start: "05:00", end: "12:00", band: "peak" },
  ]);
  const stretch = (from: string, to: string) => {
    const [h1, m1] = from.split(":").map(Number) as [number, number];
    const [h2, m2] = to.split(":").map(Number) as [number, number];
    return coverage.find((s) => s.from === h1 * 60 + m1 && s.to === h2 * 60 + m2);
  };
  assert.equal(stretch("00:00", "05:00")?.band, "low");
  assert.equal(stretch("05:00", "06:00")?.overlap, true);
  assert.equal(stretch("06:00", "12:00")?.band, "peak");
  assert.equal(stretch("12:00", "22:00")?.band, null, "uncovered");
  assert.equal(stretch("22:00", "24:00")?.band, "low");
});

test("band prices are needed for the bands the slots use", () => {
  assert.deepEqual(bandsUsed(slots(["08:00", "20:00", "peak"], ["20:00", "08:00", "low"])), ["peak", "low"]);
  assert.deepEqual(bandsUsed(undefined), []);
});

test("protection windows, dates and channels", () => {
  assert.equal(windowsProblem(JSON.stringify([{ start: "22:00", end: "07:00" }])), null);
  assert.deepEqual(windowsProblem(JSON.stringify([{ start: "22:00", end: "" }])), {
    key: "scheme.protect.time",
    vars: { n: 1 },
  });
  assert.equal(windowsProblem(""), null, "no windows at all is fine");

  assert.equal(
    datesText({ weekend: true, dates: ["2026-10-02", "2026-10-01", "2026-10-01"] }),
    '["2026-10-01","2026-10-02","weekend"]',
  );
  assert.deepEqual(parseDates('["weekend","2026-10-01"]'), { weekend: true, dates: ["2026-10-01"] });
  assert.equal(datesText({ weekend: false, dates: [] }), "");
  assert.deepEqual(datesProblem('["2026/10/01"]'), {
    key: "scheme.dates.format",
    vars: { date: "2026/10/01" },
  });

  assert.deepEqual(channelList("console, sms,,"), ["console", "sms"]);
  assert.equal(channelText(["sms", "console", "sms"]), "sms,console");
});
