import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type CommandAction,
  DEFAULT_SETTINGS,
  GatewayConfigError,
  resolveSettings,
  type StoredCommand,
  settingsFromEnv,
} from "@meterline/gateway";
import type { ElectricMeter, Fault } from "@meterline/simulator";
import { type Rig, startRig } from "./harness.ts";

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

type Rigged = { rig: Rig };

function helpers(holder: Rigged) {
  const sim = (meter: string) => holder.rig.fleet.meter(meter) as ElectricMeter;
  async function run(meter: string, action: CommandAction, faults: Fault[] = []): Promise<StoredCommand> {
    for (const fault of faults) holder.rig.fleet.injectFault(meter, fault);
    const command = holder.rig.commands.enqueue(`meter-${meter}`, action);
    return holder.rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
  /** What the meter's wallet says about purchases: exact, whatever it spends meanwhile. */
  const wallet = (meter: ElectricMeter) => ({
    purchaseCount: meter.purchaseCount,
    purchasedFen: meter.purchasedFen,
    recharges: meter.counters.recharges,
    clearings: meter.counters.clearings,
  });
  return { sim, run, wallet };
}
const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

describe("DL/T 698.45 remote recharge through the cipher machine (software test double), over real TCP", () => {
  const holder = {} as Rigged;
  const { sim, run, wallet } = helpers(holder);
  before(async () => {
    holder.rig = await startRig(PLAN, { dlt698CipherPort: "software-test-double" });
  });
  after(async () => {
    await holder.rig.close();
  });

  test("a 12.34 元 recharge: one secured ACTION F100, the wallet and the purchase count move exactly", async () => {
    const meter = sim(PREPAID_698);
    const before = wallet(meter);
    const result = await run(PREPAID_698, {
      kind: "recharge",
      amount: "12.34",
      purchaseCount: before.purchaseCount + 1,
    });
    assert.deepEqual(states(result), ["sent", "success"]);
    // SECURITY-Request (tag 0x10) carrying ciphertext (choice 1) on the wire: the amount is not in the clear.
    const sent = result.history[0]!.evidence.request!;
    assert.match(sent, /^(FE)*68/);
    assert.ok(!sent.includes("000004D2"), "1234 fen must not travel in plain text");
    assert.match(result.history[1]!.evidence.detail, /acknowledged and verified \(purchase count/);
    assert.equal(result.history[1]!.evidence.readBack?.value, String(before.purchaseCount + 1));
    assert.deepEqual(wallet(meter), {
      ...before,
      purchaseCount: before.purchaseCount + 1,
      purchasedFen: before.purchasedFen + 1234,
      recharges: before.recharges + 1,
    });
  });

  test("a recharge whose reply is lost is settled by reading 202C back: success, applied once, never resent", async () => {
    const meter = sim(PREPAID_698);
    const before = wallet(meter);
    const requests = meter.counters.requests;
    const result = await run(
      PREPAID_698,
      { kind: "recharge", amount: "12.34", purchaseCount: before.purchaseCount + 1 },
      ["noReply"],
    );
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(result.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(result.history[1]!.evidence.reply, undefined);
    assert.equal(result.history[1]!.evidence.readBack?.value, String(before.purchaseCount + 1));
    assert.deepEqual(wallet(meter), {
      ...before,
      purchaseCount: before.purchaseCount + 1,
      purchasedFen: before.purchasedFen + 1234,
      recharges: before.recharges + 1,
    });
    // The secured write once, then the read-back: nothing was written twice.
    assert.equal(meter.counters.requests - requests, 2);
  });

  test("a repeat of the same purchase count is refused by the meter (duplicate recharge): nothing applied twice", async () => {
    const meter = sim(PREPAID_698);
    const before = wallet(meter);
    const result = await run(PREPAID_698, {
      kind: "recharge",
      amount: "12.34",
      purchaseCount: before.purchaseCount,
    });
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.match(result.history[1]!.evidence.detail, /duplicate recharge \(DAR 21\)/);
    assert.deepEqual(wallet(meter), before);
  });

  test("a meter whose ESAM holds another key refuses (DAR 22): fail, wallet unchanged", async () => {
    const meter = sim(PREPAID_698);
    const before = wallet(meter);
    const balance = meter.balanceFen;
    meter.config.esamKey = "0102030405060708";
    try {
      const result = await run(PREPAID_698, {
        kind: "recharge",
        amount: "12.34",
        purchaseCount: before.purchaseCount + 1,
      });
      assert.deepEqual(states(result), ["sent", "fail"]);
      assert.match(result.history[1]!.evidence.detail, /security: .*ESAM verification failed \(DAR 22\)/);
      assert.deepEqual(wallet(meter), before);
      assert.ok(meter.balanceFen <= balance, "no money arrived");
    } finally {
      meter.config.esamKey = undefined;
    }
  });

  test("account clearing is the wallet's refund of exactly the remaining amount; a lost reply settled by read-back", async () => {
    const meter = sim(PREPAID_698);
    // The owner is gone: nothing is used while the meter is cleared.
    meter.relayOpen = true;
    try {
      const before = wallet(meter);
      const wrong = await run(PREPAID_698, {
        kind: "clearing",
        amount: ((meter.balanceFen + 1) / 100).toFixed(2),
        purchaseCount: before.purchaseCount + 1,
      });
      assert.deepEqual(states(wrong), ["sent", "fail"]);
      assert.deepEqual(wallet(meter), before);
      const cleared = await run(
        PREPAID_698,
        {
          kind: "clearing",
          amount: (meter.balanceFen / 100).toFixed(2),
          purchaseCount: before.purchaseCount + 1,
        },
        ["noReply"],
      );
      assert.deepEqual(states(cleared), ["sent", "success"]);
      assert.equal(cleared.history[1]!.evidence.readBack?.value, String(before.purchaseCount + 1));
      assert.deepEqual(
        [meter.balanceFen, meter.purchaseCount, meter.counters.clearings],
        [0, before.purchaseCount + 1, before.clearings + 1],
      );
    } finally {
      meter.relayOpen = false;
    }
  });

  test("a 698.45 meter that is not local prepaid gets no money write", async () => {
    const result = await run(PLAIN_698, { kind: "recharge", amount: "1.00", purchaseCount: 1 });
    assert.deepEqual(states(result), ["fail"]);
    assert.match(result.history[0]!.evidence.detail, /not sent: remote recharge needs a local-prepaid/);
  });
});

describe("DL/T 698.45 money writes on a gateway without a cipher machine", () => {
  const holder = {} as Rigged;
  const { sim, run, wallet } = helpers(holder);
  before(async () => {
    holder.rig = await startRig({ ...PLAN, seed: "dlt698-nocipher" });
  });
  after(async () => {
    await holder.rig.close();
  });

  test("refused before a byte is sent, naming the missing cipher port", async () => {
    const meter = sim(PREPAID_698);
    const before = wallet(meter);
    const requests = meter.counters.requests;
    const result = await run(PREPAID_698, {
      kind: "recharge",
      amount: "12.34",
      purchaseCount: before.purchaseCount + 1,
    });
    assert.deepEqual(states(result), ["fail"]);
    assert.match(
      result.history[0]!.evidence.detail,
      /not sent: .*cipher machine.*GATEWAY_DLT698_CIPHER_PORT/,
    );
    assert.equal(result.history[0]!.evidence.request, undefined);
    assert.equal(meter.counters.requests, requests, "the meter heard nothing");
    assert.deepEqual(wallet(meter), before);
  });
});

describe("the cipher port setting", () => {
  test("none by default; GATEWAY_DLT698_CIPHER_PORT names the port; an unknown name stops the gateway", () => {
    assert.equal(DEFAULT_SETTINGS.dlt698CipherPort, "none");
    assert.equal(resolveSettings({}).dlt698CipherPort, "none");
    const env = { GATEWAY_DLT698_CIPHER_PORT: "software-test-double" };
    assert.equal(resolveSettings(settingsFromEnv(env)).dlt698CipherPort, "software-test-double");
    assert.throws(
      () => resolveSettings(settingsFromEnv({ GATEWAY_DLT698_CIPHER_PORT: "hsm-x" })),
      (e) =>
        e instanceof GatewayConfigError &&
        /dlt698CipherPort must be one of none, software-test-double/.test(e.message),
    );
  });
});
