import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cjt188 } from "@meterline/protocols";
import { answerWater, WaterMeter } from "@meterline/simulator";

const ADDRESS = "78330000000009";
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 30, 12) - 8 * HOUR; // 30 Nov 12:00 local

function meter(diOrder: cjt188.DiOrder = "big-endian") {
  return new WaterMeter({
    address: ADDRESS,
    meterType: 0x10,
    diOrder,
    profile: { mean: 20, seed: "w" },
    localOffsetMs: 8 * HOUR,
    valveTravelMs: 5_000,
  });
}

function ask(m: WaterMeter, request: Uint8Array, now: number) {
  const reply = answerWater(m, cjt188.decodeRequest(cjt188.parseFrame(request)), now);
  assert.ok(reply);
  const parsed = cjt188.parseFrame(reply);
  assert.ok(
    cjt188.isReplyTo(parsed, cjt188.parseFrame(request)),
    "the reply matches: SER echoed, DI in either order",
  );
  return cjt188.decodeReply(parsed).message;
}

describe("simulated water meter", () => {
  test("volume, meter time and status in the 901F reply; settlement total kept at the month change", () => {
    const m = meter();
    m.advance(START);
    const first = ask(m, cjt188.buildReadData(ADDRESS, { ser: 7 }), START + 6 * HOUR);
    assert.equal(first.kind, "read-data-reply");
    const data = first.kind === "read-data-reply" ? first.meterData! : undefined;
    assert.equal(data?.time.value, "2026-11-30 18:00:00");
    assert.equal(data?.status.valve, "open");
    assert.ok(Number(data?.currentTotal.value) > 0);
    assert.equal(data?.settlementDayTotal.value, "0.00");
    const next = ask(m, cjt188.buildReadData(ADDRESS, { ser: 8 }), START + 30 * HOUR); // 1 Dec 18:00
    const after = next.kind === "read-data-reply" ? next.meterData! : undefined;
    assert.ok(Number(after?.settlementDayTotal.value) > 0, "the 1st of the month froze a settlement total");
  });

  test("a motor valve reports its old state until it has moved; no water flows once closed", () => {
    const m = meter("little-endian");
    m.advance(START);
    const reply = ask(
      m,
      cjt188.buildValveControl(ADDRESS, "close", { ser: 1, diOrder: "little-endian" }),
      START,
    );
    assert.equal(reply.kind === "valve-control-reply" && reply.status?.valve, "open");
    assert.equal(reply.kind === "valve-control-reply" && reply.diOrder, "little-endian");
    assert.equal(m.valveAt(START + 4_999), "open");
    assert.equal(m.valveAt(START + 5_000), "closed");
    m.advance(START + HOUR);
    const shut = m.volume.steps[0];
    m.advance(START + 10 * HOUR);
    assert.equal(m.volume.steps[0], shut);
    assert.equal(m.counters.valveOps, 1);
  });

  test("unknown requests get an abnormal reply carrying the status", () => {
    const m = meter();
    const reply = ask(m, cjt188.buildReadData(ADDRESS, { ser: 3, di: "8103" }), START);
    assert.equal(reply.kind, "error-reply");
    assert.equal(reply.kind === "error-reply" && reply.ser, 3);
  });

  test("keeps the price table and alarm amounts written to it and answers them back, in its DI order", () => {
    const m = meter("little-endian");
    const options = { diOrder: "little-endian" as const, ser: 9 };
    const table = { prices: ["3.45", "4.83", "5.99"], thresholds: ["180", "260"] } as cjt188.WaterPriceTable;
    const ack = ask(m, cjt188.buildWritePriceTable(ADDRESS, { ...table, startDay: 26 }, options), START);
    assert.ok(ack.kind === "write-reply");
    assert.equal(ack.status?.valve, "open");
    const amounts = { first: "50.00", second: "20.00" };
    assert.equal(ask(m, cjt188.buildWriteAlarmAmounts(ADDRESS, amounts, options), START).kind, "write-reply");
    assert.deepEqual(
      [m.priceTable, m.priceStartDay, m.alarmAmounts, m.counters.writes],
      [table, 26, amounts, 2],
    );
    const price = ask(m, cjt188.buildReadData(ADDRESS, { ...options, di: "8102" }), START);
    assert.deepEqual(price.kind === "read-data-reply" && price.priceTable, table);
    const alarm = ask(m, cjt188.buildReadData(ADDRESS, { ...options, di: "81F1" }), START);
    assert.deepEqual(alarm.kind === "read-data-reply" && alarm.alarmAmounts, amounts);
  });
});
