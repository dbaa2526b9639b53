import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { encodeRecharge } from "@meterline/gateway";
import { dlt645 } from "@meterline/protocols";
import { answerElectric, DEFAULT_SLOTS, ElectricMeter, REGISTER_MODULUS } from "@meterline/simulator";

const ADDRESS = "201000000042";
const START = Date.UTC(2026, 10, 23, 0, 0, 0) - 8 * 3_600_000; // Monday 00:00 in UTC+8
const HOUR = 3_600_000;

function meter(overrides: Partial<ConstructorParameters<typeof ElectricMeter>[0]> = {}) {
  return new ElectricMeter({
    address: ADDRESS,
    version: "2007",
    localPrepaid: true,
    profile: { mean: 800, seed: "m" },
    slots: DEFAULT_SLOTS,
    localOffsetMs: 8 * HOUR,
    balanceFen: 10_000,
    ...overrides,
  });
}

/** Send a request frame to the meter and decode its reply as the gateway would. */
function ask(m: ElectricMeter, request: Uint8Array, now: number) {
  const reply = answerElectric(m, dlt645.decodeRequest(dlt645.parseFrame(request)), now);
  return reply ? dlt645.decodeReply(dlt645.parseFrame(reply)).message : null;
}

const until = (m: ElectricMeter, now: number, minutes: number) => {
  const t = new Date(m.localNow(now) + minutes * 60_000);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
  };
};

describe("simulated electricity meter", () => {
  test("registers grow by tariff, freeze at local midnight and answer as the codec expects", () => {
    const m = meter();
    m.advance(START);
    const later = START + 36 * HOUR;
    const block = ask(m, dlt645.buildRead(ADDRESS, "0001FF00"), later);
    assert.equal(block?.kind, "read-reply");
    const values =
      block!.kind === "read-reply" ? block!.fields.map((f) => (f.kind === "number" ? f.scaled : null)) : [];
    const [total, ...tariffs] = values as bigint[];
    assert.equal(
      total,
      tariffs.reduce((a, b) => a + b, 0n),
    );
    assert.ok(
      tariffs.every((v) => v > 0n),
      "every band used in a day and a half",
    );
    const frozenTime = ask(m, dlt645.buildRead(ADDRESS, "05060001"), later);
    assert.equal(frozenTime?.kind === "read-reply" && frozenTime.fields[0]!.value, "2026-11-24 00:00");
    const older = ask(m, dlt645.buildRead(ADDRESS, "05060002"), later);
    assert.equal(older?.kind, "error-reply", "only one midnight has passed");
  });

  test("local prepaid: deductions are exact integers of the tariff prices", () => {
    const m = meter();
    m.advance(START);
    m.advance(START + 24 * HOUR);
    const microYuan = m.energy.steps.reduce((sum, steps, band) => sum + steps * m.prices[band]!, 0);
    assert.equal(m.balanceFen, 10_000 - Math.floor(microYuan / 10_000));
    const balance = ask(m, dlt645.buildRead(ADDRESS, "00900200"), START + 24 * HOUR);
    assert.equal(balance?.kind === "read-reply" && balance.fields[0]!.value, (m.balanceFen / 100).toFixed(2));
  });

  test("relay control checks password and validity; power-hold blocks a trip", () => {
    const m = meter();
    const now = START + HOUR;
    const expired = ask(
      m,
      dlt645.buildRelayControl(ADDRESS, { command: "trip", validUntil: until(m, now, -5) }),
      now,
    );
    assert.equal(expired?.kind, "error-reply");
    const wrong = ask(
      m,
      dlt645.buildRelayControl(ADDRESS, {
        command: "trip",
        validUntil: until(m, now, 5),
        password: "123456",
      }),
      now,
    );
    assert.equal(wrong?.kind === "error-reply" && wrong.error.flags[0], "password-or-unauthorised");
    assert.equal(m.counters.relayOps, 0);
    assert.equal(
      ask(m, dlt645.buildRelayControl(ADDRESS, { command: "power-hold", validUntil: until(m, now, 5) }), now)
        ?.kind,
      "relay-control-ack",
    );
    assert.equal(
      ask(m, dlt645.buildRelayControl(ADDRESS, { command: "trip", validUntil: until(m, now, 5) }), now)?.kind,
      "error-reply",
    );
    ask(
      m,
      dlt645.buildRelayControl(ADDRESS, { command: "power-hold-release", validUntil: until(m, now, 5) }),
      now,
    );
    const trip = ask(
      m,
      dlt645.buildRelayControl(ADDRESS, {
        command: "trip",
        validUntil: until(m, now, 5),
        operator: "0000ABCD",
      }),
      now,
    );
    assert.equal(trip?.kind, "relay-control-ack");
    const status = ask(m, dlt645.buildRead(ADDRESS, "04000503"), now);
    assert.equal(status?.kind === "read-reply" && status.statusWord3?.relay, "open");
    assert.equal(m.operations.at(-1)?.operator, "0000ABCD");
    // close-allowed waits for the button (close-pending), pressed after the configured delay
    ask(
      m,
      dlt645.buildRelayControl(ADDRESS, { command: "close-allowed", validUntil: until(m, now, 5) }),
      now,
    );
    const pending = ask(m, dlt645.buildRead(ADDRESS, "04000503"), now + 1000);
    assert.equal(pending?.kind === "read-reply" && pending.statusWord3?.relay, "close-pending");
    const closed = ask(m, dlt645.buildRead(ADDRESS, "04000503"), now + 61_000);
    assert.equal(closed?.kind === "read-reply" && closed.statusWord3?.relay, "closed");
  });

  test("recharges need the next purchase count, so a replay is refused", () => {
    const m = meter();
    const now = START;
    const write = (count: number, amount: string) =>
      ask(m, dlt645.buildWrite(ADDRESS, "0400F001", encodeRecharge("0400F001", count, amount)), now);
    assert.equal(write(1, "100.00")?.kind, "write-ack");
    assert.equal(write(1, "100.00")?.kind, "error-reply");
    assert.equal(write(3, "1.00")?.kind, "error-reply");
    assert.equal(write(2, "0.01")?.kind, "write-ack");
    assert.equal(m.balanceFen, 10_000 + 10_001);
    assert.equal(m.purchaseCount, 2);
    const count = ask(m, dlt645.buildRead(ADDRESS, "03330201"), now);
    assert.equal(count?.kind === "read-reply" && count.fields[0]!.value, "2");
  });

  test("arrears trip the meter itself; a recharge allows closing again", () => {
    const m = meter({ balanceFen: 10, buttonDelayMs: -1 });
    m.advance(START);
    m.advance(START + 48 * HOUR);
    assert.equal(m.relayOpen, true);
    assert.equal(m.counters.selfTrips, 1);
    const usedBefore = m.energy.steps.reduce((a, b) => a + b, 0);
    m.advance(START + 72 * HOUR);
    assert.equal(
      m.energy.steps.reduce((a, b) => a + b, 0),
      usedBefore,
      "no consumption with the relay open",
    );
    ask(
      m,
      dlt645.buildWrite(ADDRESS, "0400F001", encodeRecharge("0400F001", 1, "500.00")),
      START + 72 * HOUR,
    );
    assert.equal(m.relayCommandOpen, false, "close allowed, waiting for the button");
    assert.equal(m.relayOpen, true);
  });

  test("registers roll over at 999999.99 kWh", () => {
    const top = REGISTER_MODULUS - 5;
    const m = meter({ initialSteps: [top, top, top, top], localPrepaid: false });
    m.advance(START);
    m.advance(START + 24 * HOUR);
    assert.ok(
      m.shownTariffs().every((steps) => steps < 1_000_000),
      "every tariff wrapped to a small value",
    );
    const total = ask(m, dlt645.buildRead(ADDRESS, "00010000"), START + 24 * HOUR);
    assert.ok(total?.kind === "read-reply" && Number(total.fields[0]!.value) < 999_000);
  });

  test("the broadcast time sets a drifting clock right; DL/T 645-1997 meters answer 1997 DIs", () => {
    const m = meter({ localOffsetMs: 8 * HOUR + 17 * 60_000 });
    const now = START + HOUR;
    const reply = answerElectric(
      m,
      dlt645.decodeRequest(
        dlt645.parseFrame(dlt645.buildBroadcastTime({ year: 2026, month: 11, day: 23, hour: 1 })),
      ),
      now,
    );
    assert.equal(reply, null);
    assert.equal(m.localNow(now), Date.UTC(2026, 10, 23, 1));
    const old = meter({ version: "1997", localPrepaid: false });
    const energy = ask(old, dlt645.buildRead(ADDRESS, "9010"), START);
    assert.equal(energy?.kind === "read-reply" && energy.fields[0]!.value, "0.00");
    assert.equal(ask(old, dlt645.buildRead(ADDRESS, "B611"), START)?.kind, "error-reply");
  });
});

describe("a meter running since a known time", () => {
  test("continues its registers across restarts of the simulation, however long it was off", () => {
    const since = START - 100 * 24 * HOUR;
    // The first run: started 100 days ago, read now.
    const first = meter({ runningSince: since, localPrepaid: false });
    first.advance(START);
    const before = first.shownTotal();
    // The simulation restarts a day later: the same meter, built again, carries on from `since`.
    const again = meter({ runningSince: since, localPrepaid: false });
    again.advance(START + 24 * HOUR);
    assert.ok(before > 0, "a hundred days of use are on the register");
    assert.ok(again.shownTotal() > before, `${again.shownTotal()} after ${before}`);
    // Without a start, a rebuilt meter starts again from its initial registers.
    const fresh = meter({ localPrepaid: false });
    fresh.advance(START + 24 * HOUR);
    assert.equal(fresh.shownTotal(), 0);
    // Its freeze memory holds the last 62 midnights, as a real meter's does.
    assert.equal(again.frozen.length, 62);
  });
  test("a ladder written by frames prices the meter's own usage across steps, and restarts with its cycle", () => {
    const m = meter({ balanceFen: 10_000 });
    m.advance(START);
    const write = (di: string, value: string) => {
      const reply = ask(
        m,
        dlt645.buildWrite(ADDRESS, di, [value], { passwordLevel: 2, password: "000000" }),
        START,
      );
      assert.equal(reply?.kind, "write-ack", di);
    };
    for (let band = 1; band <= 4; band++) write(`0405010${band}`, "0");
    write("04060001", "10.00"); // 10 kWh at step 1
    write("04060002", "0"); // ends the ladder
    write("04060101", "0.5000");
    write("04060102", "0.8000");
    write("0400F010", "1"); // monthly
    assert.deepEqual(
      [m.ladderThresholds[0], m.ladderPrices.slice(0, 2), m.ladderCycle],
      [1000, [5000, 8000], 1],
    );
    const read = ask(m, dlt645.buildRead(ADDRESS, "04060102"), START);
    assert.equal(read?.kind === "read-reply" && read.fields[0]!.value, "0.8000");
    // 15 kWh in one go: 10 at 0.50 and 5 at 0.80 = 9.00 yuan.
    m.use([0, 0, 1500, 0], START);
    assert.equal(m.balanceFen, 10_000 - 900);
    // 1 kWh more in the same month: the second step.
    m.use([0, 100, 0, 0], START + HOUR);
    assert.equal(m.balanceFen, 10_000 - 900 - 80);
    // Next month the cycle starts again at the first step.
    m.use([0, 0, 100, 0], START + 8 * 24 * HOUR);
    assert.equal(m.balanceFen, 10_000 - 900 - 80 - 50);
    // A refused value (a threshold out of the table) changes nothing.
    const refused = ask(m, dlt645.buildWrite(ADDRESS, "04060000", new Uint8Array(4)), START);
    assert.equal(refused?.kind, "error-reply");
  });

  test("account clearing gives up exactly the balance, once, as the next purchase", () => {
    const m = meter({ balanceFen: 4_321, profile: { mean: 0, seed: "idle" } });
    m.advance(START);
    const clear = (count: number, amount: string) =>
      ask(
        m,
        dlt645.buildWrite(
          ADDRESS,
          dlt645.MONEY_WRITE_DI.clearing,
          dlt645.encodeMoneyWrite(dlt645.MONEY_WRITE_DI.clearing, { purchaseCount: count, amount }),
          { passwordLevel: 2, password: "000000" },
        ),
        START,
      )?.kind;
    assert.equal(clear(1, "43.20"), "error-reply", "not the meter's balance");
    assert.equal(clear(2, "43.21"), "error-reply", "not the next purchase count");
    assert.equal(clear(1, "43.21"), "write-ack");
    assert.deepEqual([m.balanceFen, m.purchaseCount, m.counters.clearings], [0, 1, 1]);
    assert.equal(clear(1, "43.21"), "error-reply", "a replay is refused");
  });
});
