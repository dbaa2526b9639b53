import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cjt188, dlt645 } from "@meterline/protocols";
import {
  answerElectric,
  answerWater,
  DEFAULT_SLOTS,
  ElectricMeter,
  parseConditionArg,
  WaterMeter,
} from "@meterline/simulator";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 23, 12) - 8 * HOUR; // Monday 12:00 in UTC+8

const electric = () =>
  new ElectricMeter({
    address: "201000000042",
    version: "2007",
    localPrepaid: false,
    profile: { mean: 800, seed: "c" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 8 * HOUR,
  });

/** One DI read over real frames, decoded as the gateway decodes it. */
function read(m: ElectricMeter, di: string) {
  const reply = answerElectric(
    m,
    dlt645.decodeRequest(dlt645.parseFrame(dlt645.buildRead(m.address, di))),
    NOW,
  );
  assert.ok(reply);
  const message = dlt645.decodeReply(dlt645.parseFrame(reply)).message;
  assert.equal(message.kind, "read-reply");
  return message.kind === "read-reply" ? message : undefined;
}
const value = (m: ElectricMeter, di: string) => read(m, di)?.fields[0]?.value;

describe("meter-side conditions show in the bytes a real meter sends", () => {
  test("a healthy meter: status word 1 clear, power drawn forward, no cover opening", () => {
    const m = electric();
    assert.equal(value(m, "04000501"), "0000");
    assert.ok(Number(value(m, "02030000")) > 0);
    assert.equal(value(m, "03300D00"), "0");
    assert.equal(read(m, "04000503")?.statusWord3?.relay, "closed");
  });

  test("each flag sets its bits, and clearing it clears them", () => {
    const m = electric();
    m.setConditions({ reverseEnergy: true, batteryLow: true, overPower: true, relayFault: true });
    const word1 = dlt645.decodeStatusWord1(Number.parseInt(value(m, "04000501")!, 16));
    assert.equal(word1.activeReverse, true);
    assert.equal(word1.clockBatteryLow, true);
    assert.equal(value(m, "02030000"), "-60.0000");
    const word3 = read(m, "04000503")?.statusWord3;
    assert.equal(word3?.relayCommandOpen, true);
    assert.equal(word3?.relayOpen, false);
    m.setConditions({ reverseEnergy: false, batteryLow: false, overPower: false, relayFault: false });
    assert.equal(value(m, "04000501"), "0000");
    assert.ok(Number(value(m, "02030000")) > 0 && Number(value(m, "02030000")) < 60);
    assert.equal(read(m, "04000503")?.statusWord3?.relay, "closed");
  });

  test("opening the cover counts once per opening; closing it leaves the count", () => {
    const m = electric();
    m.setConditions({ coverOpen: true });
    m.setConditions({ coverOpen: true });
    assert.equal(value(m, "03300D00"), "1");
    m.setConditions({ coverOpen: false });
    assert.equal(value(m, "03300D00"), "1");
    m.setConditions({ coverOpen: true });
    assert.equal(value(m, "03300D00"), "2");
  });

  test("a drifting clock shows in the time the meter answers", () => {
    const m = electric();
    m.setConditions({ clockDriftMinutes: -12 });
    assert.equal(value(m, "04000102"), "11:48:00");
    m.setConditions({ clockDriftMinutes: 0 });
    assert.equal(value(m, "04000102"), "12:00:00");
  });

  test("water: a faulty valve reports abnormal (11) and the battery bit in ST; both clear", () => {
    const m = new WaterMeter({
      address: "78330000000009",
      meterType: 0x10,
      diOrder: "big-endian",
      profile: { mean: 20, seed: "w" },
      localOffsetMs: 8 * HOUR,
      valveTravelMs: 0,
    });
    const status = () => {
      const request = cjt188.buildReadData(m.address, { ser: 1 });
      const reply = answerWater(m, cjt188.decodeRequest(cjt188.parseFrame(request)), NOW);
      const message = cjt188.decodeReply(cjt188.parseFrame(reply!)).message;
      return message.kind === "read-data-reply" ? message.meterData?.status : undefined;
    };
    m.setConditions({ valveFault: true, batteryLow: true });
    assert.equal(status()?.valve, "abnormal");
    assert.equal(status()?.batteryLow, true);
    m.setConditions({ valveFault: false, batteryLow: false });
    assert.equal(status()?.valve, "open");
    assert.equal(status()?.batteryLow, false);
    assert.throws(() => m.setConditions({ coverOpen: true }), /cannot show/);
  });

  test("the command line names a meter and a condition", () => {
    assert.deepEqual(parseConditionArg("201000000001:coverOpen"), {
      address: "201000000001",
      change: { coverOpen: true },
    });
    assert.deepEqual(parseConditionArg("201000000001:relayFault=false").change, { relayFault: false });
    assert.deepEqual(parseConditionArg("7833:clockDriftMinutes=-9").change, { clockDriftMinutes: -9 });
    assert.throws(() => parseConditionArg("201000000001:smoke"), /unknown condition/);
    assert.throws(() => parseConditionArg("201000000001:clockDriftMinutes"), /MINUTES/);
  });
});
