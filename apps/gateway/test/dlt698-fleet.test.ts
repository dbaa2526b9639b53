import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type CommandAction, localTextToEpoch, type StoredCommand } from "@meterline/gateway";
import { dlt698, formatScaled, parseScaled } from "@meterline/protocols";
import type { ElectricMeter, Fault } from "@meterline/simulator";
import { type Rig, startRig, waitUntil } from "./harness.ts";

// 4 electricity meters on one DTU bus: serials 0 (645), 1 (645 prepaid), 2 (698.45), 3 (698.45 prepaid).
const PLAN = {
  meters: 4,
  dtus: 1,
  waterRatio: 0,
  prepaidRatio: 0.5,
  dlt698Ratio: 0.5,
  seed: "dlt698",
  pollIntervalMs: 0,
  // Running since yesterday: every meter has frozen a day at its local midnight.
  runningSince: Date.now() - 26 * 3_600_000,
};
const address = (serial: number) => String(201_000_000_000 + serial);
const PLAIN_698 = address(2);
const PREPAID_698 = address(3);

describe("DL/T 698.45 meters behind a DTU, over real TCP", () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig(PLAN);
  });
  after(async () => {
    await rig.close();
  });

  const sim = (meter: string) => rig.fleet.meter(meter) as ElectricMeter;

  async function run(meter: string, action: CommandAction, faults: Fault[] = []): Promise<StoredCommand> {
    for (const fault of faults) rig.fleet.injectFault(meter, fault);
    const command = rig.commands.enqueue(`meter-${meter}`, action);
    return rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
  const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

  test("the plan puts 645 and 698.45 meters on the same bus", async () => {
    assert.deepEqual(
      (await rig.directory.metersOf("DTU00001")).map((meter) => [meter.address, meter.protocol]),
      [
        [address(0), "dlt645-2007"],
        [address(1), "dlt645-2007"],
        [PLAIN_698, "dlt698"],
        [PREPAID_698, "dlt698"],
      ],
    );
  });

  test("a poll reads energy by tariff, relay, power and the wallet by GET, exactly as the meter holds them", async () => {
    const ids = [0, 1, 2, 3].map((serial) => `meter-${address(serial)}`);
    rig.gateway.pollNow();
    await waitUntil(() => ids.every((id) => rig.readings.latest(id)), 5_000, "every meter read");
    const prepaid = rig.readings.latest(`meter-${PREPAID_698}`)!;
    const meter = sim(PREPAID_698);
    assert.deepEqual(prepaid.missing, []);
    assert.equal(prepaid.relay, "closed");
    // The wallet was the last item asked: the meter has not moved on since.
    assert.equal(prepaid.balance, formatScaled(BigInt(meter.balanceFen), 2));
    assert.equal(prepaid.purchaseCount, 0);
    const total = parseScaled(prepaid.energy!.total, 2);
    assert.ok(total > 0n && total <= BigInt(meter.shownTotal()));
    const tariffs = prepaid.energy!.tariffs.map((value) => parseScaled(value, 2));
    assert.equal(tariffs.length, 4);
    assert.equal(
      tariffs.reduce((a, b) => a + b, 0n),
      total,
    );
    assert.match(prepaid.activePower ?? "", /^\d+\.\d{4}$/, "kW with 4 decimals, as DL/T 645 gives it");
    const plain = rig.readings.latest(`meter-${PLAIN_698}`)!;
    assert.deepEqual([plain.missing, plain.balance], [[], undefined]);
    // The first poll of the day reads the daily freeze and the clock too.
    assert.ok(prepaid.dailyFrozen && plain.dailyFrozen && prepaid.meterTime && plain.statusWord1);
    assert.ok(rig.readings.latest(`meter-${address(1)}`)?.balance, "the 645 meter on the bus is read too");
  });

  test("cut by ACTION, confirmed by reading the relay state back", async () => {
    const result = await run(PREPAID_698, { kind: "relay", action: "trip" });
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(
      result.history[1]!.evidence.detail,
      /acknowledged and verified \(relay command open, relay open\)/,
    );
    assert.equal(result.history[1]!.evidence.readBack?.value, "open");
    assert.equal(sim(PREPAID_698).relayOpen, true);
    assert.equal(sim(PREPAID_698).counters.trips, 1);
  });

  test("restored by ACTION whose reply is lost: the read-back settles it, executed once", async () => {
    const result = await run(PREPAID_698, { kind: "relay", action: "close-direct" }, ["noReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(result.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(result.history[1]!.evidence.reply, undefined);
    assert.equal(result.history[1]!.evidence.readBack?.value, "closed");
    assert.equal(sim(PREPAID_698).relayOpen, false);
    assert.equal(sim(PREPAID_698).counters.relayOps, 2);
  });

  test("an ACTION lost on the bus times out and the read-back shows it failed; never resent", async () => {
    const result = await run(PLAIN_698, { kind: "relay", action: "trip" }, ["ignore"]);
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.match(result.history[1]!.evidence.detail, /did not take effect/);
    assert.equal(sim(PLAIN_698).counters.relayOps, 0);
  });

  test("a refused ACTION (DAR) fails without a retry; an ad-hoc GET reads the wallet", async () => {
    sim(PREPAID_698).balanceFen = -500;
    await run(PREPAID_698, { kind: "relay", action: "trip" });
    const refused = await run(PREPAID_698, { kind: "relay", action: "close-direct" });
    assert.deepEqual(states(refused), ["sent", "fail"]);
    assert.match(refused.history[1]!.evidence.detail, /error reply: read\/write denied/);
    const read = await run(PREPAID_698, { kind: "read", di: "202C0200" });
    assert.deepEqual(states(read), ["sent", "success"]);
    assert.match(
      read.history[1]!.evidence.value ?? "",
      /current wallet file, remaining amount=0\.00; current wallet file, purchase count=0/,
    );
  });
});

describe("DL/T 698.45 daily freeze, clock and status words over real TCP", () => {
  const TZ = "Asia/Shanghai";
  let rig: Rig;
  const sim = (meter: string) => rig.fleet.meter(meter) as ElectricMeter;
  const localText = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

  before(async () => {
    rig = await startRig(PLAN, { timeZone: TZ, clockToleranceMs: 60_000 });
    // Before the day's first poll: one 698.45 meter's clock runs 10 minutes fast with a low clock
    // battery and power fed back; the other is a model without daily freezes (DAR for 5004).
    sim(PLAIN_698).config.localOffsetMs += 10 * 60_000;
    sim(PLAIN_698).setConditions({ batteryLow: true, reverseEnergy: true });
    sim(PREPAID_698).config.dailyFrozen = false;
    // A fault no broadcast can fix: polled after PLAIN_698's correction, it still reads 10 minutes
    // fast, and the bus has had its 698.45 broadcast for the interval.
    sim(PREPAID_698).setConditions({ clockDriftMinutes: 10 });
    // A 645 meter on the same bus runs 10 minutes slow: its broadcast is another frame.
    sim(address(0)).config.localOffsetMs -= 10 * 60_000;
  });
  after(async () => {
    await rig.close();
  });

  test("the day's poll yields the freeze, the clock and status word 1; a broadcast time corrects the clock", async () => {
    const ids = [0, 1, 2, 3].map((serial) => `meter-${address(serial)}`);
    rig.gateway.pollNow();
    await waitUntil(() => ids.every((id) => rig.readings.latest(id)), 5_000, "every meter read");
    const plain = rig.readings.latest(`meter-${PLAIN_698}`)!;
    const meter = sim(PLAIN_698);
    assert.deepEqual(plain.missing, []);
    const frozen = meter.frozen[0]!;
    const fixed = (steps: number) => formatScaled(BigInt(steps), 2);
    assert.deepEqual(plain.dailyFrozen, {
      time: localText(frozen.localMs).slice(0, 16),
      energy: {
        total: fixed(frozen.steps.reduce((a, b) => a + b, 0)),
        tariffs: frozen.steps.map(fixed),
      },
    });
    assert.match(plain.dailyFrozen!.time!, / 00:00$/, "frozen at local midnight");
    assert.equal(plain.statusWord1, "0014", "clock battery low and reverse active power, as 645 says it");
    const drift = localTextToEpoch(plain.meterTime!, TZ)! - plain.at.getTime();
    assert.ok(Math.abs(drift - 600_000) < 5_000, `read 10 minutes fast, drift ${drift} ms`);

    // One broadcast time per protocol: a 645 one does not set a 698.45 clock, nor the reverse; the
    // second drifted 698.45 meter gets none of its own.
    await waitUntil(() => rig.gateway.stats().clockBroadcasts >= 2, 5_000, "two broadcast times");
    const prepaid = rig.readings.latest(`meter-${PREPAID_698}`)!;
    const prepaidDrift = localTextToEpoch(prepaid.meterTime!, TZ)! - prepaid.at.getTime();
    assert.ok(Math.abs(prepaidDrift - 600_000) < 5_000, `still fast after the broadcast: ${prepaidDrift} ms`);
    const clock = await run(PLAIN_698, { kind: "read", di: dlt698.OAD.CLOCK });
    // The collector runs one job at a time: the read above came after the round had ended.
    assert.equal(rig.gateway.stats().clockBroadcasts, 2);
    const now = localTextToEpoch((clock.history.at(-1)?.evidence.value ?? "").split("=").at(-1)!, TZ)!;
    assert.ok(Math.abs(now - Date.now()) < 5_000, `the 698.45 clock is still ${now - Date.now()} ms off`);
    const off645 = sim(address(0)).localNow(Date.now()) - (Date.now() + 8 * 3_600_000);
    assert.ok(Math.abs(off645) < 5_000, `the 645 clock is still ${off645} ms off`);
  });

  test("a meter refusing GET-Record of 5004 still yields its other items", () => {
    const prepaid = rig.readings.latest(`meter-${PREPAID_698}`)!;
    assert.deepEqual(prepaid.missing, ["daily-frozen"]);
    assert.equal(prepaid.dailyFrozen, undefined);
    assert.equal(prepaid.balance, formatScaled(BigInt(sim(PREPAID_698).balanceFen), 2));
    assert.ok(prepaid.energy && prepaid.meterTime && prepaid.relay === "closed");
    assert.equal(prepaid.statusWord1, "0000");
  });

  test("another round the same day neither rereads the freeze nor broadcasts again", async () => {
    sim(PLAIN_698).config.localOffsetMs += 10 * 60_000;
    const before = rig.readings.count;
    rig.gateway.pollNow();
    await waitUntil(() => rig.readings.count >= before + 4, 5_000, "a second round");
    const plain = rig.readings.latest(`meter-${PLAIN_698}`)!;
    assert.equal(plain.dailyFrozen, undefined);
    assert.equal(plain.meterTime, undefined);
    assert.equal(rig.gateway.stats().clockBroadcasts, 2);
  });

  async function run(meter: string, action: CommandAction): Promise<StoredCommand> {
    const command = rig.commands.enqueue(`meter-${meter}`, action);
    return rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
});
