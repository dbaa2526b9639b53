import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DirectoryFileError,
  IllegalTransition,
  MemoryCommandQueue,
  MemoryLeaseStore,
  MemoryMeterDirectory,
  parseDirectory,
} from "@meterline/gateway";

const meter = (id: string, collectorId: string) => ({
  id,
  address: "201000000001",
  protocol: "dlt645-2007",
  collectorId,
  pollIntervalMs: 1000,
});

describe("in-memory ports", () => {
  test("the queue hands out commands of online collectors only, in order, once", async () => {
    const directory = new MemoryMeterDirectory(parseDirectory([meter("m1", "A"), meter("m2", "B")]));
    const queue = new MemoryCommandQueue((id) => directory.collectorOf(id));
    const first = queue.enqueue("m1", { kind: "relay", action: "trip" });
    queue.enqueue("m2", { kind: "relay", action: "trip" });
    const third = queue.enqueue("m1", { kind: "read", di: "00010000" });
    const claimed = await queue.claim({ owner: "g1", collectorIds: ["A"], limit: 10 });
    assert.deepEqual(
      claimed.map((c) => c.id),
      [first.id, third.id],
    );
    assert.deepEqual(await queue.claim({ owner: "g2", collectorIds: ["A"], limit: 10 }), []);
    await queue.release([third.id]);
    assert.deepEqual(
      (await queue.claim({ owner: "g2", collectorIds: ["A"], limit: 10 })).map((c) => c.id),
      [third.id],
    );
  });

  test("the queue enforces the lifecycle and records the evidence", async () => {
    const queue = new MemoryCommandQueue(() => "A");
    const command = queue.enqueue("m1", { kind: "relay", action: "trip" });
    await assert.rejects(
      queue.update({ commandId: command.id, state: "success", at: new Date(), evidence: { detail: "x" } }),
      IllegalTransition,
    );
    await queue.update({
      commandId: command.id,
      state: "sent",
      at: new Date(),
      evidence: { detail: "sent", request: "68" },
    });
    await queue.update({
      commandId: command.id,
      state: "timeout",
      at: new Date(),
      evidence: { detail: "no reply" },
    });
    const waiting = queue.waitFor(command.id, ["success"], 1000);
    await queue.update({
      commandId: command.id,
      state: "success",
      at: new Date(),
      evidence: { detail: "read back" },
    });
    const stored = await waiting;
    assert.deepEqual(
      stored.history.map((h) => h.state),
      ["sent", "timeout", "success"],
    );
    await queue.release([command.id]);
    assert.deepEqual(
      await queue.claim({ owner: "g", collectorIds: ["A"], limit: 5 }),
      [],
      "a sent command is never handed out again",
    );
  });

  test("leases: owner renews, others wait for expiry", async () => {
    let now = 0;
    const leases = new MemoryLeaseStore(() => now);
    assert.equal(await leases.acquire("DTU1", "g1", 100), true);
    assert.equal(await leases.acquire("DTU1", "g2", 100), false);
    now = 50;
    assert.deepEqual(await leases.renew(["DTU1"], "g1", 100), new Set(["DTU1"]));
    now = 120;
    assert.equal(await leases.acquire("DTU1", "g2", 100), false, "renewed until 150");
    now = 151;
    assert.equal(await leases.acquire("DTU1", "g2", 100), true);
    assert.deepEqual(await leases.renew(["DTU1"], "g1", 100), new Set(), "g1 lost it");
    await leases.release(["DTU1"], "g1");
    assert.equal(leases.ownerOf("DTU1"), "g2", "only the owner can release");
  });

  test("the directory file is validated field by field", () => {
    assert.throws(() => parseDirectory({}), DirectoryFileError);
    assert.throws(
      () => parseDirectory([{ ...meter("m1", "A"), protocol: "iec62056" }]),
      /meter #0: protocol/,
    );
    // Modbus: a slave address and a model of the catalogue.
    const modbusMeter = {
      ...meter("m1", "A"),
      protocol: "modbus",
      address: "3",
      model: { modbusModel: "sdm120" },
    };
    assert.equal(parseDirectory([modbusMeter])[0]!.address, "3");
    assert.throws(
      () => parseDirectory([{ ...modbusMeter, address: "000000000003" }]),
      /address must be a Modbus slave/,
    );
    assert.throws(
      () => parseDirectory([{ ...modbusMeter, model: { modbusModel: "nosuch" } }]),
      /meter #0: model\.modbusModel no model "nosuch" in the catalogue/,
    );
    assert.throws(() => parseDirectory([meter("m1", "A"), meter("m1", "B")]), /used twice/);
    assert.throws(() => parseDirectory([{ ...meter("m1", "A"), address: "12AB" }]), /address/);
    const [parsed] = parseDirectory([{ ...meter("m1", "A"), address: "17" }]);
    assert.equal(parsed!.address, "000000000017");
    assert.equal(parsed!.transport, "tcp");
  });
});
