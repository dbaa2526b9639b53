import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CommandAction, StoredCommand } from "@meterline/gateway";
import { formatScaled, parseScaled } from "@meterline/protocols";
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
