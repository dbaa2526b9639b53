import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { dlt645 } from "@meterline/protocols";
import {
  answerElectric,
  type ElectricMeter,
  type FleetHandle,
  planFleet,
  startFleet,
  type WaterMeter,
} from "@meterline/simulator";

const OPTIONS = {
  meters: 8,
  dtus: 2,
  waterRatio: 0.5,
  prepaidRatio: 0,
  modbusMeters: 2,
  modbusModels: ["ddsy1352"],
  seed: "supply-off",
};

/** Status word 3 read over real DL/T 645 frames, decoded as the gateway decodes it. */
function statusWord3(meter: ElectricMeter, now: number) {
  const reply = answerElectric(
    meter,
    dlt645.decodeRequest(dlt645.parseFrame(dlt645.buildRead(meter.address, "04000503"))),
    now,
  );
  assert.ok(reply);
  const message = dlt645.decodeReply(dlt645.parseFrame(reply)).message;
  assert.equal(message.kind, "read-reply");
  return message.kind === "read-reply" ? message.statusWord3 : undefined;
}

describe("a fleet started again keeps the supply its meters had", () => {
  let fleet: FleetHandle | undefined;
  after(() => fleet?.close());

  test("the meters named start with the relay tripped, the valve shut, the Modbus relay off; the rest supplied", async () => {
    const plan = planFleet(OPTIONS);
    const [cut, supplied] = plan.meters.filter((m) => m.kind === "electric");
    const [shut, open] = plan.meters.filter((m) => m.kind === "water");
    const [modbusOff, modbusOn] = plan.modbus;
    assert.ok(cut && supplied && shut && open && modbusOff && modbusOn);
    fleet = await startFleet({
      ...OPTIONS,
      // A meter the fleet does not have is passed over.
      supplyOff: [cut.address, shut.address, modbusOff.id, "999999999999"],
    });
    const now = Date.now();

    // Tripped as by a command (status word 3 says commanded open): a close command closes it.
    const tripped = fleet.meter(cut.address) as ElectricMeter;
    assert.deepEqual(
      [statusWord3(tripped, now)?.relayOpen, statusWord3(tripped, now)?.relayCommandOpen],
      [true, true],
    );
    const closed = fleet.meter(supplied.address) as ElectricMeter;
    assert.equal(statusWord3(closed, now)?.relayOpen, false);

    assert.equal((fleet.meter(shut.address) as WaterMeter).valveAt(now), "closed");
    assert.equal((fleet.meter(open.address) as WaterMeter).valveAt(now), "open");

    assert.equal(fleet.modbusMeter(modbusOff.id)?.relayOn, false);
    assert.equal(fleet.modbusMeter(modbusOn.id)?.relayOn, true);
  });
});
