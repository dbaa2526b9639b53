import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt645 } from "@meterline/protocols";
import { answerElectric, DEFAULT_SLOTS, ElectricMeter } from "@meterline/simulator";

const ADDRESS = "201000000043";
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 23, 0, 0, 0) - 8 * HOUR; // 00:00 in UTC+8
const CREDENTIALS = { passwordLevel: 2, password: "000000", operator: "00000001" } as const;

function meter() {
  return new ElectricMeter({
    address: ADDRESS,
    version: "2007",
    localPrepaid: true,
    profile: { mean: 800, seed: "tou" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 8 * HOUR,
    balanceFen: 1_000_000,
    prices: [0, 0, 0, 0],
  });
}

function ask(m: ElectricMeter, request: Uint8Array, now: number) {
  const reply = answerElectric(m, dlt645.decodeRequest(dlt645.parseFrame(request)), now);
  return reply ? dlt645.decodeReply(dlt645.parseFrame(reply)).message : null;
}

const writeTable = (m: ElectricMeter, di: string, value: string, now: number) =>
  ask(m, dlt645.buildWrite(ADDRESS, di, dlt645.touTableInputs(di, value), CREDENTIALS), now);

describe("simulated meter: time-of-use tables", () => {
  test("a written day table is read back and decides the band usage is registered and charged in", () => {
    const m = meter();
    m.advance(START);
    // 00:00–12:00 tariff 2 (peak), 12:00–24:00 tariff 4 (valley).
    assert.equal(writeTable(m, "04010001", "000002,120004", START)?.kind, "write-ack");
    assert.equal(writeTable(m, "04010000", "010101", START)?.kind, "write-ack");
    const read = ask(m, dlt645.buildRead(ADDRESS, "04010001"), START);
    assert.ok(read?.kind === "read-reply");
    assert.equal(dlt645.touTableValue("04010001", read.fields), "000002,120004");

    // Peak 1.0000 yuan/kWh, valley 0.1000: each band's usage is charged at its own price.
    m.prices.splice(0, 4, 0, 10_000, 0, 1_000);
    const before = [...m.energy.steps];
    const balance = m.balanceFen;
    m.advance(START + 12 * HOUR);
    const peak = m.energy.steps[1]! - before[1]!;
    assert.ok(peak > 0, "the morning is registered as peak");
    assert.deepEqual(
      [0, 2, 3].map((band) => m.energy.steps[band]! - before[band]!),
      [0, 0, 0],
    );
    // 0.01 kWh × 1.0000 yuan = 1 fen: the meter charged exactly its peak usage.
    assert.equal(balance - m.balanceFen, peak);
    const valleyFrom = [...m.energy.steps];
    const afternoon = m.balanceFen;
    m.advance(START + 24 * HOUR);
    const valley = m.energy.steps[3]! - valleyFrom[3]!;
    assert.ok(valley > 0);
    assert.equal(m.energy.steps[1], valleyFrom[1], "no peak usage after 12:00");
    assert.ok(Math.abs(afternoon - m.balanceFen - Math.floor(valley / 10)) <= 1);
  });

  test("counts are kept; tables the meter cannot hold are refused and change nothing", () => {
    const m = meter();
    const count = ask(m, dlt645.buildWrite(ADDRESS, "04000203", ["2"], CREDENTIALS), START);
    assert.equal(count?.kind, "write-ack");
    const read = ask(m, dlt645.buildRead(ADDRESS, "04000203"), START);
    assert.ok(read?.kind === "read-reply" && read.fields[0]?.kind === "number");
    assert.equal(read.fields[0].scaled, 2n);
    const before = m.tou.dayTables[0];
    // Tariff 5: the meter has four tariff registers. Out of order: no meter reads it so.
    assert.equal(writeTable(m, "04010001", "000005", START)?.kind, "error-reply");
    assert.equal(writeTable(m, "04010001", "120001,000002", START)?.kind, "error-reply");
    assert.equal(
      ask(m, dlt645.buildWrite(ADDRESS, "04000204", ["5"], CREDENTIALS), START)?.kind,
      "error-reply",
    );
    assert.equal(m.tou.dayTables[0], before);
  });
});
