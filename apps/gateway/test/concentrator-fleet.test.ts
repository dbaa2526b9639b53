import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import type { CommandAction, StoredCommand } from "@meterline/gateway";
import { formatScaled, qgdw1376 } from "@meterline/protocols";
import type { ElectricMeter, Fault, SimulatedConcentrator } from "@meterline/simulator";
import { type Rig, startRig, waitUntil } from "./harness.ts";

// One concentrator (area 3401, terminal 1 → collector 34010001) with 4 meters on its carrier port:
// serials 0 (645), 1 (645 prepaid), 2 (698.45), 3 (698.45 prepaid).
const PLAN = {
  meters: 4,
  dtus: 1,
  concentrators: true,
  waterRatio: 0,
  prepaidRatio: 0.5,
  dlt698Ratio: 0.5,
  seed: "concentrator",
  pollIntervalMs: 0,
};
const ID = "34010001";
const address = (serial: number) => String(201_000_000_000 + serial);
const PREPAID_645 = address(1);
const PREPAID_698 = address(3);
// Carrier delays well inside the timeouts; outcomes are asserted, never durations.
const SETTINGS = {
  concentratorRequestTimeoutMs: 1_200,
  concentratorMeterTimeoutMs: 500,
  dlt698CipherPort: "software-test-double" as const,
};
const CARRIER = { minDelayMs: 10, maxDelayMs: 60, dropRate: 0 };

describe("Q/GDW 1376.1 concentrator over real TCP", () => {
  let rig: Rig;
  let concentrator: SimulatedConcentrator;
  before(async () => {
    rig = await startRig({ ...PLAN, carrier: CARRIER }, SETTINGS);
    concentrator = rig.fleet.dtu(ID) as SimulatedConcentrator;
  });
  after(async () => {
    await rig.close();
  });

  const sim = (meter: string) => rig.fleet.meter(meter) as ElectricMeter;
  async function run(meter: string, action: CommandAction, faults: Fault[] = []): Promise<StoredCommand> {
    for (const fault of faults) rig.fleet.injectFault(meter, fault);
    const command = rig.commands.enqueue(`meter-${meter}`, action);
    return rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 10_000);
  }
  const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

  test("it logs in with its password, is confirmed, and receives its meter file from the registry", async () => {
    assert.deepEqual(rig.gateway.collectors(), [ID]);
    await waitUntil(() => concentrator.file.size === 4, 5_000, "the meter file written");
    assert.deepEqual(
      [...concentrator.file.values()].map((row) => [row.index, row.pn, row.address, row.protocol, row.port]),
      [
        [1, 1, address(0), 30, 31],
        [2, 2, address(1), 30, 31],
        [3, 3, address(2), 32, 31],
        [4, 4, address(3), 32, 31],
      ],
    );
    // The sink hears the file as the concentrator confirmed it, for the console's concentrator page.
    await waitUntil(() => rig.readings.meterFiles.get(ID)?.rows.length === 4, 5_000, "the file reported");
    assert.deepEqual(
      rig.readings.meterFiles.get(ID)!.rows.map((row) => [row.pn, row.address, row.protocol, row.port]),
      [...concentrator.file.values()].map((row) => [row.pn, row.address, row.protocol, row.port]),
    );
    assert.ok(concentrator.concentratorStats.confirmsReceived >= 1, "the login was confirmed");
    assert.equal(concentrator.concentratorStats.denied, 0, "every write carried the right password");
    const beats = rig.gateway.stats().heartbeats;
    await waitUntil(() => rig.gateway.stats().heartbeats > beats + 1, 3_000, "heartbeats answered");
  });

  test("its 645 and 698.45 meters are polled through forwarding, read exactly as behind a DTU", async () => {
    const ids = [0, 1, 2, 3].map((serial) => `meter-${address(serial)}`);
    rig.gateway.pollNow();
    await waitUntil(() => ids.every((id) => rig.readings.latest(id)), 15_000, "every meter read");
    // A fresh simulated meter has frozen no day yet: a 645 one refuses that read, a 698.45 one
    // answers no record; behind a DTU alike.
    for (const id of ids)
      assert.deepEqual(
        rig.readings
          .latest(id)!
          .missing.filter((item) => !item.startsWith("frozen-") && item !== "daily-frozen"),
        [],
        id,
      );
    assert.ok(rig.readings.latest(`meter-${address(0)}`)!.energy, "the 645 meter's energy came through");
    const prepaid698 = rig.readings.latest(`meter-${PREPAID_698}`)!;
    assert.equal(prepaid698.relay, "closed");
    assert.equal(prepaid698.balance, formatScaled(BigInt(sim(PREPAID_698).balanceFen), 2));
    const prepaid645 = rig.readings.latest(`meter-${PREPAID_645}`)!;
    assert.equal(prepaid645.balance, formatScaled(BigInt(sim(PREPAID_645).balanceFen), 2));
    assert.ok(concentrator.concentratorStats.forwards >= 8);
    assert.equal(concentrator.concentratorStats.unfiled, 0);
  });

  test("a 645 meter is cut and restored through forwarding, each settled by reading the relay back", async () => {
    const trip = await run(PREPAID_645, { kind: "relay", action: "trip" });
    assert.deepEqual(states(trip), ["sent", "success"]);
    assert.equal(trip.history[1]!.evidence.readBack?.value, "open");
    assert.equal(sim(PREPAID_645).relayOpen, true);
    const close = await run(PREPAID_645, { kind: "relay", action: "close-direct" });
    assert.deepEqual(states(close), ["sent", "success"]);
    assert.equal(sim(PREPAID_645).relayOpen, false);
  });

  test("a 698.45 relay command whose reply is lost is settled by reading back, executed once", async () => {
    const trip = await run(PREPAID_698, { kind: "relay", action: "trip" }, ["noReply"]);
    assert.deepEqual(states(trip), ["sent", "success"]);
    assert.match(trip.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(trip.history[1]!.evidence.readBack?.value, "open");
    assert.equal(sim(PREPAID_698).relayOpen, true);
    assert.equal(sim(PREPAID_698).counters.trips, 1);
    const lostOnTheWay = await run(address(2), { kind: "relay", action: "trip" }, ["ignore"]);
    assert.deepEqual(states(lostOnTheWay), ["sent", "fail"], "never executed: the read-back says so");
    assert.equal(sim(address(2)).counters.relayOps, 0);
  });

  test("a 698.45 recharge through forwarding: the secured wallet operation is applied once and verified", async () => {
    const meter = sim(PREPAID_698);
    const count = meter.purchaseCount;
    const purchased = meter.purchasedFen;
    const result = await run(PREPAID_698, { kind: "recharge", amount: "12.34", purchaseCount: count + 1 });
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(result.history[1]!.evidence.detail, /acknowledged and verified \(purchase count/);
    assert.deepEqual(
      [meter.purchaseCount, meter.purchasedFen, meter.counters.recharges],
      [count + 1, purchased + 1234, 1],
    );
  });

  test("meters removed from the registry leave the file; a meter added takes a free row", async () => {
    const all = rig.directory.all();
    rig.directory.replace(all.filter((meter) => meter.address !== address(1)));
    await waitUntil(() => !concentrator.filedAddresses().includes(address(1)), 5_000, "row deleted");
    assert.deepEqual(concentrator.filedAddresses(), [address(0), address(2), address(3)]);
    await waitUntil(
      () => rig.readings.meterFiles.get(ID)?.rows.length === 3,
      5_000,
      "the smaller file reported",
    );
    rig.directory.replace(all);
    await waitUntil(() => concentrator.file.size === 4, 5_000, "row written again");
    assert.equal(concentrator.file.get(2)?.address, address(1), "the freed row is taken again");
    assert.equal(concentrator.concentratorStats.denied, 0);
  });

  test("a concentrator with a wrong password, none, or an unknown address is refused without a byte", async () => {
    const { host, port } = rig.gateway.address();
    const attempt = (frame: Uint8Array) =>
      new Promise<number>((resolve) => {
        let received = 0;
        const socket = net.connect({ host, port }, () => socket.write(frame));
        socket.on("data", (chunk) => (received += chunk.length));
        socket.on("error", () => undefined);
        socket.on("close", () => resolve(received));
      });
    const terminal = { area: "3401", terminal: 1, master: 0, group: false };
    const before = rig.gateway.stats().rejected;
    assert.equal(await attempt(qgdw1376.buildLogin(terminal, { password: "0".repeat(32) })), 0);
    assert.equal(await attempt(qgdw1376.buildLogin(terminal)), 0);
    assert.equal(
      await attempt(qgdw1376.buildLogin({ ...terminal, terminal: 99 }, { password: "0".repeat(32) })),
      0,
    );
    // A first frame claiming 16 KiB of user data is no login: refused from its L field alone.
    assert.equal(await attempt(Uint8Array.of(0x68, 0xfe, 0xff, 0xfe, 0xff, 0x68, 0x4b, 0, 0, 0)), 0);
    const after = rig.gateway.stats().rejected;
    assert.equal((after["bad secret"] ?? 0) - (before["bad secret"] ?? 0), 2);
    assert.equal((after["unknown collector"] ?? 0) - (before["unknown collector"] ?? 0), 1);
    assert.deepEqual(rig.gateway.collectors(), [ID], "the real concentrator keeps its session");
  });
});

describe("a concentrator's own event reports (AFN 0E) over real TCP", () => {
  let rig: Rig;
  let concentrator: SimulatedConcentrator;
  before(async () => {
    rig = await startRig({ ...PLAN, carrier: { ...CARRIER, eventScanMs: 30 } }, SETTINGS);
    concentrator = rig.fleet.dtu(ID) as SimulatedConcentrator;
    await waitUntil(() => concentrator.file.size === 4, 5_000, "the meter file written");
  });
  after(async () => {
    await rig.close();
  });

  test("a cover opened is reported, confirmed, and only that meter is read at once, cover count included", async () => {
    const confirms = concentrator.concentratorStats.confirmsReceived;
    const reportConfirms = concentrator.concentratorStats.reportConfirmsReceived;
    await new Promise((resolve) => setTimeout(resolve, 100)); // the concentrator has seen its meters once
    rig.fleet.setConditions(address(0), { coverOpen: true });
    const id = `meter-${address(0)}`;
    await waitUntil(() => rig.readings.latest(id)?.coverOpenCount === 1, 5_000, "the cover count read");
    assert.ok(concentrator.concentratorStats.eventsReported >= 1);
    assert.ok(concentrator.concentratorStats.confirmsReceived > confirms, "the report was confirmed");
    assert.ok(
      concentrator.concentratorStats.reportConfirmsReceived > reportConfirms,
      "the report's confirm is a plain acknowledgement (C = 00), not a link status",
    );
    // Nothing is polled on a schedule here (first poll in 60 s): the other meters were not read.
    for (const serial of [1, 2, 3]) assert.equal(rig.readings.latest(`meter-${address(serial)}`), undefined);
  });

  test("a relay that changed state is reported and the meter's reading shows it", async () => {
    const id = `meter-${PREPAID_698}`;
    assert.equal(rig.readings.latest(id), undefined);
    const command = rig.commands.enqueue(id, { kind: "relay", action: "trip" });
    await rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 10_000);
    await waitUntil(() => rig.readings.latest(id)?.relay === "open", 5_000, "the relay read as open");
  });
});

describe("a concentrator whose carrier loses frames (seeded)", () => {
  let rig: Rig;
  let concentrator: SimulatedConcentrator;
  before(async () => {
    rig = await startRig({ ...PLAN, carrier: { ...CARRIER, dropRate: 0.4 } }, SETTINGS);
    concentrator = rig.fleet.dtu(ID) as SimulatedConcentrator;
    await waitUntil(() => concentrator.file.size === 4, 5_000, "the meter file written");
  });
  after(async () => {
    await rig.close();
  });

  test("losses end each wait early (the concentrator answers empty) and reads are retried", async () => {
    const ids = [0, 1, 2, 3].map((serial) => `meter-${address(serial)}`);
    rig.gateway.pollNow();
    await waitUntil(() => ids.every((id) => rig.readings.latest(id)), 30_000, "every meter read");
    const stats = rig.gateway.stats();
    assert.ok(concentrator.concentratorStats.carrierDrops > 0, "the carrier lost frames");
    assert.ok(stats.timeouts > 0 && stats.retries > 0, "lost answers count as timeouts and are retried");
    assert.deepEqual(rig.gateway.collectors(), [ID], "losses never cost the session");
  });
});
