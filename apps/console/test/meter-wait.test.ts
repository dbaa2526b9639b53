import assert from "node:assert/strict";
import { test } from "node:test";
import type { RechargeDetail } from "../src/pages/money/counter/counter-calls.ts";
import { waitForMeter } from "../src/pages/money/counter/meter-wait.ts";

const fast = { pollMs: 1, waitMs: 200 };
const detail = (state: number) => ({ id: "7", state, receiptNo: "R7" }) as RechargeDetail;

/** A read-back answering the given states in turn (the last one for ever); counts its calls. */
function reader(states: (number | Error)[]) {
  let calls = 0;
  const read = async () => {
    const next = states[Math.min(calls, states.length - 1)];
    calls += 1;
    if (next instanceof Error) throw next;
    return detail(next ?? 0);
  };
  return { read, calls: () => calls };
}

test("a purchase is booked once the meter confirms it, after reads still waiting or failing", async () => {
  const meter = reader([0, new Error("network"), 0, 1]);
  const outcome = await waitForMeter(meter.read, new AbortController().signal, fast);
  assert.equal(outcome.state, "booked");
  assert.equal(meter.calls(), 4);
});

test("a purchase the meter refused is reported as failed", async () => {
  const meter = reader([0, 2]);
  assert.equal((await waitForMeter(meter.read, new AbortController().signal, fast)).state, "failed");
});

test("a meter that never answers ends in a timeout, not a booking", async () => {
  const meter = reader([0]);
  const outcome = await waitForMeter(meter.read, new AbortController().signal, { pollMs: 5, waitMs: 60 });
  assert.equal(outcome.state, "timeout");
  assert.ok(meter.calls() >= 2, `read ${meter.calls()} times`);
});

test("closing the dialog stops the reading", async () => {
  const meter = reader([0]);
  const controller = new AbortController();
  controller.abort();
  assert.equal((await waitForMeter(meter.read, controller.signal, fast)).state, "timeout");
  assert.equal(meter.calls(), 0);
});
