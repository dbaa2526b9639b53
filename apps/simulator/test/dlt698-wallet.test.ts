import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt698, splitFrames } from "@meterline/protocols";
import { createRandom, DEFAULT_SLOTS, ElectricMeter, FaultPlan, MeterBus } from "@meterline/simulator";

const ADDRESS = "202600000042";
const SERVER = dlt698.toServerAddress(ADDRESS);
const START = Date.UTC(2026, 10, 23, 0, 0, 0) - 8 * 3_600_000;

function setUp(localPrepaid = true) {
  const meter = new ElectricMeter({
    address: ADDRESS,
    version: "2007",
    protocol: "dlt698",
    localPrepaid,
    profile: { mean: 800, seed: "m" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 8 * 3_600_000,
    balanceFen: 10_000,
  });
  meter.advance(START);
  // Nobody at home: the wallet moves only by purchases.
  meter.relayOpen = true;
  const bus = new MeterBus([{ meter, faults: new FaultPlan({}, createRandom("f")) }], {
    replyDelayMs: 0,
    lateReplyMs: 0,
  });
  const master = new dlt698.FakeEsam();
  /** A wallet operation as the gateway sends it; the meter's opened answer (DAR), or its refusal. */
  async function send(
    input: dlt698.WalletSidMacInput,
    options: { sidMac?: dlt698.WalletInput["sidMac"] } = {},
  ) {
    const sidMac = options.sidMac ?? (await master.walletSidMac(SERVER, input));
    const request = await dlt698.secureRequest(
      dlt698.walletApdu({ ...input, sidMac }, { piid: 4 }),
      master,
      SERVER,
      "cipher-sid-mac",
    );
    const [frame] = splitFrames(dlt698.buildApduFrame(SERVER, request), { protocol: "any" }).frames;
    const replies = bus.handle(frame!, START + 1_000).replies;
    assert.equal(replies.length, 1);
    const response = dlt698.decodeFromServer(dlt698.parseFrame(replies[0]!.bytes)).apdu!;
    assert.equal(response.service, "security-response");
    try {
      const inner = await dlt698.openSecurityResponse(response, master, SERVER, request);
      assert.ok(inner.service === "action-response-normal" && inner.piid === 4);
      return inner.dar;
    } catch (error) {
      return (error as Error).message;
    }
  }
  const recharge = (purchaseCount: number, amount = "12.34"): dlt698.WalletSidMacInput => ({
    operation: "recharge",
    amount,
    purchaseCount,
    customerNumber: "000000000000",
    meterNumber: ADDRESS,
  });
  const wallet = () => [meter.balanceFen, meter.purchaseCount, meter.counters.recharges];
  return { meter, send, recharge, wallet };
}

describe("simulated DL/T 698.45 meter: ESAM wallet operation", () => {
  test("a recharge is applied once per purchase count; the same count again is a duplicate (DAR 21)", async () => {
    const { send, recharge, wallet } = setUp();
    assert.equal(await send(recharge(1)), 0);
    assert.deepEqual(wallet(), [11_234, 1, 1]);
    assert.equal(await send(recharge(1)), 21);
    assert.equal(await send(recharge(3)), 25, "a gap in the counts");
    assert.deepEqual(wallet(), [11_234, 1, 1]);
  });

  test("a wrong SID_MAC, another meter's number or customer number: refused, wallet unchanged", async () => {
    const { send, recharge, wallet } = setUp();
    const forged = await new dlt698.FakeEsam(Uint8Array.of(9, 9, 9)).walletSidMac(SERVER, recharge(1));
    assert.equal(await send(recharge(1), { sidMac: forged }), 22);
    assert.equal(await send({ ...recharge(1), meterNumber: "202600000043" }), 27);
    assert.equal(await send({ ...recharge(1), customerNumber: "000000009999" }), 24);
    assert.deepEqual(wallet(), [10_000, 0, 0]);
  });

  test("an ESAM keyed otherwise refuses the whole SECURITY-Request (DAR 22), nothing inside runs", async () => {
    const { meter, send, recharge, wallet } = setUp();
    meter.config.esamKey = "0102030405060708";
    assert.match(String(await send(recharge(1))), /ESAM verification failed \(DAR 22\)/);
    assert.deepEqual(wallet(), [10_000, 0, 0]);
  });

  test("a refund gives up exactly the remaining amount; a meter that is not local prepaid takes no money", async () => {
    const { meter, send } = setUp();
    const refund = (amount: string): dlt698.WalletSidMacInput => ({
      operation: "refund",
      amount,
      purchaseCount: 1,
      customerNumber: "000000000000",
      meterNumber: ADDRESS,
    });
    assert.equal(await send(refund("99.99")), 255);
    assert.equal(meter.balanceFen, 10_000);
    assert.equal(await send(refund("100.00")), 0);
    assert.deepEqual([meter.balanceFen, meter.purchaseCount, meter.counters.clearings], [0, 1, 1]);
    const plain = setUp(false);
    assert.equal(await plain.send(plain.recharge(1)), 4);
  });
});
