import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DecodedField } from "@meterline/protocols";
import type { MeterReading } from "../src/model.ts";
import { applyReply, diOf, pollPlan } from "../src/protocol/read-items.ts";
import type { MeterReply } from "../src/protocol/requests.ts";

const text = (value: string | null, kind: "word" | "digits" = "word"): DecodedField => ({
  kind,
  name: "x",
  status: value === null ? "absent" : "ok",
  raw: "",
  value,
});
const number = (value: string | null): DecodedField => ({
  kind: "number",
  name: "x",
  status: value === null ? "absent" : "ok",
  raw: "",
  value,
  scaled: null,
  scale: 0,
  unit: "count",
});
const reply = (field: DecodedField): MeterReply => ({ kind: "read", fields: [field] });
const reading = (): MeterReading => ({ meterId: "1", address: "201000000001", at: new Date(), missing: [] });

const meter2007 = {
  id: "1",
  address: "201000000001",
  protocol: "dlt645-2007",
  model: { localPrepaid: false },
} as unknown as Parameters<typeof pollPlan>[0];

describe("the alarm facts a poll reads", () => {
  test("status word 1 and power on every poll of a 2007 meter, the cover count once a day", () => {
    const daily = pollPlan(meter2007, true);
    const plain = pollPlan(meter2007, false);
    assert.ok(plain.includes("status-1") && plain.includes("power"));
    assert.ok(!plain.includes("cover-count"));
    assert.ok(daily.includes("cover-count"));
    assert.equal(diOf("status-1", meter2007), "04000501");
    assert.equal(diOf("power", meter2007), "02030000");
    assert.equal(diOf("cover-count", meter2007), "03300D00");
  });

  test("each lands in the reading; a value the item cannot carry is refused, not stored", () => {
    const r = reading();
    assert.equal(applyReply(r, "status-1", reply(text("0014"))), true);
    assert.equal(applyReply(r, "power", reply(number("-1.2345"))), true);
    assert.equal(applyReply(r, "cover-count", reply(number("3"))), true);
    assert.deepEqual([r.statusWord1, r.activePower, r.coverOpenCount], ["0014", "-1.2345", 3]);
    const bad = reading();
    assert.equal(applyReply(bad, "status-1", reply(text("12345"))), false);
    assert.equal(applyReply(bad, "status-1", reply(text(null))), false);
    assert.equal(applyReply(bad, "power", reply(number(null))), false);
    assert.equal(applyReply(bad, "cover-count", reply(number("1.5"))), false);
    assert.deepEqual(
      [bad.statusWord1, bad.activePower, bad.coverOpenCount],
      [undefined, undefined, undefined],
    );
  });
});
