import { dlt645 } from "@meterline/protocols";
import { calendar, startOfDay } from "./clock.ts";
import { checkConditions, type MeterConditions, OVER_POWER_W } from "./conditions.ts";
import { type Accumulator, accumulate, newAccumulator, type Profile, rateAt, STEP } from "./profile.ts";
import type { TariffSlot } from "./tariff.ts";
import { MeterTouTables } from "./tou-tables.ts";

/** Registers show XXXXXX.XX: they roll over at 1,000,000.00 kWh (10^8 steps). */
export const REGISTER_MODULUS = 100_000_000;
const DAY_MS = 86_400_000;
/** Tip, peak, flat and valley prices a local-prepaid meter charges unless written otherwise (0.0001 yuan/kWh). */
export const DEFAULT_METER_PRICES: readonly number[] = [12_000, 8_000, 5_500, 3_000];
/** After a longer silence (a paused demo) only this much history is integrated. */
const MAX_CATCH_UP_MS = 62 * DAY_MS;

export interface ElectricConfig {
  address: string;
  /** DL/T 645 version; a DL/T 698.45 meter (protocol "dlt698") ignores it. */
  version: "2007" | "1997";
  /** The protocol it speaks on its bus: DL/T 645 (default) or DL/T 698.45 (GET / ACTION). */
  protocol?: "dlt645" | "dlt698";
  localPrepaid: boolean;
  profile: Profile;
  slots: readonly TariffSlot[];
  /** Tenant UTC offset plus this meter's own clock error. */
  localOffsetMs: number;
  initialSteps?: readonly number[];
  /** Money in fen, prices in 0.0001 yuan/kWh: integers only. */
  balanceFen?: number;
  prices?: readonly number[];
  /** A close-allowed (1B) waits for the user's button; pressed this long after (negative: never). */
  buttonDelayMs?: number /**
   * True time since which the meter has been running: registers then continue across restarts of
   * the simulation instead of starting again (the demo), catching up however long it was off.
   */;
  runningSince?: number;
  /** An injected anomaly (see anomalies.ts): under-registering, tamper or relay-bypass. */
  anomaly?: MeterAnomaly;
  /** false: a DL/T 698.45 model without daily freezes, refusing GET-Record of 5004 (DAR 6). */
  dailyFrozen?: boolean;
  /** DL/T 698.45: the key of the meter's ESAM double (hex); unset = the shared test key (dlt698-wallet.ts). */
  esamKey?: string;
  /** DL/T 698.45: the customer number (户号, hex) its ESAM holds; unset = 6 bytes of zero. */
  customerNumber?: string;
}

/** What a meter itself does wrong from `start`: the kinds of anomalies.ts a single meter can carry. */
export interface MeterAnomaly {
  kind: "under-registering" | "tamper" | "relay-bypass" | "leak";
  start: number;
  magnitude: number;
}

export interface Operation {
  kind: "relay" | "write" | "recharge" | "clearing" | "valve";
  detail: string;
  operator: string | null;
  at: number;
}

export interface FrozenDay {
  /** Local midnight the values were frozen at. */
  localMs: number;
  steps: number[];
}

/**
 * The state of a simulated DL/T 645 or DL/T 698.45 electricity meter: tariff registers, relay, local-prepaid
 * money registers and daily frozen data. Advanced lazily to the time of each request.
 */
export class ElectricMeter {
  readonly kind = "electric";
  readonly energy: Accumulator;
  relayOpen = false;
  relayCommandOpen = false;
  powerHold = false;
  alarm = false;
  closePendingSince: number | null = null;
  /** The relay was opened by the meter itself (arrears), not by a command: a recharge re-allows closing. */
  selfTripped = false;
  balanceFen: number;
  microYuan = 0;
  purchaseCount = 0;
  purchasedFen = 0;
  alarm1Fen = 5_000;
  alarm2Fen = 1_000;
  overdraftLimitFen = 2_000;
  hoardingLimitFen = 10_000_000;
  closeAllowedFen = 0;
  readonly prices: number[];
  /**
   * The ladder (0406xxxx): step thresholds (0.01 kWh per cycle; 0 ends the ladder) and step prices
   * (0.0001 yuan/kWh). As State Grid cost-control meters do, a step's price is added to the tariff
   * price of the band: a pure ladder is written with zero tariff prices, a flat or time-of-use price
   * with the ladder cleared (threshold 1 and price 1 zero).
   */
  readonly ladderThresholds: number[] = new Array(14).fill(0);
  readonly ladderPrices: number[] = new Array(15).fill(0);
  /** 1 the ladder's usage restarts each local calendar month, 2 each year (vendor register 0400F010). */
  ladderCycle = 2;
  /** Usage of the current ladder cycle (0.01 kWh) and the cycle it belongs to ("2026" or "2026-11"). */
  cycleSteps = 0;
  cycleKey = "";
  password = "000000";
  /** Meter-side conditions (cover, battery, relay, power, clock) the test or the fleet config set. */
  conditions: MeterConditions = {};
  /** Cover openings the meter counted (03300D00). */
  coverOpenCount = 0;
  readonly frozen: FrozenDay[] = [];
  readonly operations: Operation[] = [];
  readonly counters = {
    requests: 0,
    /** Energy-block reads answered (DL/T 645): one per poll that yields a reading, for loss checks. */
    energyReads: 0,
    relayOps: 0,
    trips: 0,
    closes: 0,
    selfTrips: 0,
    writes: 0,
    recharges: 0,
    clearings: 0,
    refused: 0,
  };
  /** Year zones and day tables (0401xxxx): the band usage falls in is the one they give at the meter's clock. */
  readonly tou: MeterTouTables;
  private lastAt: number | null;
  private tampered = false;

  constructor(readonly config: ElectricConfig) {
    this.energy = newAccumulator(4, config.initialSteps);
    this.lastAt = config.runningSince ?? null;
    this.balanceFen = config.balanceFen ?? 0;
    this.prices = [...(config.prices ?? DEFAULT_METER_PRICES)];
    this.tou = new MeterTouTables(config.slots);
  }

  get address(): string {
    return this.config.address;
  }

  get speaks698(): boolean {
    return this.config.protocol === "dlt698";
  }

  /** The meter's own local clock (with its drift). */
  localNow(now: number): number {
    return now + this.config.localOffsetMs + (this.conditions.clockDriftMinutes ?? 0) * 60_000;
  }

  /** Sets (true, a number) or clears (false, 0) conditions; opening the cover counts one opening. */
  setConditions(change: MeterConditions): void {
    checkConditions("electric", change);
    if (change.coverOpen && !this.conditions.coverOpen) this.coverOpenCount++;
    this.conditions = { ...this.conditions, ...change };
  }

  /** Status word 1: the clock battery (bit 2) and the active power direction (bit 4). */
  statusWord1(): number {
    return dlt645.encodeStatusWord1({
      clockBatteryLow: this.conditions.batteryLow === true,
      activeReverse: this.conditions.reverseEnergy === true,
    });
  }

  /** Total active power at `now` in 0.0001 kW (0.1 W), signed: the profile's rate while the relay is closed. */
  activePower(now: number): bigint {
    const closed = !this.relayOpen || this.conditions.relayFault === true;
    const anomaly = this.anomalyAt(now);
    const watts = this.conditions.overPower
      ? OVER_POWER_W
      : closed
        ? rateAt(this.countedProfile(anomaly), this.localNow(now))
        : anomaly?.kind === "relay-bypass"
          ? Math.round(anomaly.magnitude * 1000)
          : 0;
    return BigInt(watts * 10) * (this.conditions.reverseEnergy ? -1n : 1n);
  }

  /** Steps per tariff as shown (rolled over). */
  shownTariffs(): number[] {
    return this.energy.steps.map((steps) => steps % REGISTER_MODULUS);
  }

  shownTotal(): number {
    return this.energy.steps.reduce((sum, steps) => sum + steps, 0) % REGISTER_MODULUS;
  }

  statusWord3(): number {
    const preTrip = this.alarm || (this.config.localPrepaid && this.balanceFen <= this.alarm2Fen);
    // A welded relay: commanded open, yet the contact stays closed.
    const stuck = this.conditions.relayFault === true;
    return (
      (this.relayOpen && !stuck ? 1 << 4 : 0) |
      (this.relayCommandOpen || stuck ? 1 << 6 : 0) |
      (preTrip ? 1 << 7 : 0) |
      (this.config.localPrepaid ? 0b10 << 8 : 0) |
      (this.powerHold ? 1 << 12 : 0)
    );
  }

  /** Bring registers, money and frozen data up to `now` (true simulated time). */
  advance(now: number): void {
    let from = this.lastAt ?? now;
    this.lastAt = now;
    // A meter running since a known time catches up all of it, or its registers would go back.
    if (this.config.runningSince === undefined && now - from > MAX_CATCH_UP_MS) from = now - MAX_CATCH_UP_MS;
    const offset = this.config.localOffsetMs;
    // A tamper starts with the cover opened (the meter records the opening).
    if (this.config.anomaly?.kind === "tamper" && now >= this.config.anomaly.start && !this.tampered) {
      this.tampered = true;
      this.setConditions({ coverOpen: true });
    }
    while (from < now) {
      const nextMidnight = startOfDay(from + offset) + DAY_MS - offset;
      const to = Math.min(now, nextMidnight);
      this.consume(from, to);
      if (to === nextMidnight) this.freeze(nextMidnight + offset);
      from = to;
    }
    const delay = this.config.buttonDelayMs ?? 60_000;
    if (this.closePendingSince !== null && delay >= 0 && now >= this.closePendingSince + delay)
      this.pressButton();
  }

  /** The user presses the meter's button: a close that was allowed (1B) now closes the relay. */
  pressButton(): void {
    if (this.relayCommandOpen || !this.relayOpen) return;
    this.relayOpen = false;
    this.closePendingSince = null;
    this.counters.closes++;
  }

  /** The injected anomaly if it acts at `at`. */
  private anomalyAt(at: number): MeterAnomaly | undefined {
    const anomaly = this.config.anomaly;
    return anomaly && at >= anomaly.start ? anomaly : undefined;
  }

  /** The profile the register follows: an under-registering (or tampered) one counts (1 − m) of it. */
  private countedProfile(anomaly: MeterAnomaly | undefined): Profile {
    const profile = this.config.profile;
    if (anomaly?.kind !== "under-registering" && anomaly?.kind !== "tamper") return profile;
    return { ...profile, mean: Math.round(profile.mean * (1 - anomaly.magnitude)) };
  }

  private consume(from: number, to: number): void {
    const start = this.config.anomaly?.start;
    if (start !== undefined && from < start && start < to) {
      this.consumeSpan(from, start);
      this.consumeSpan(start, to);
    } else this.consumeSpan(from, to);
  }

  /** Energy through bridged relay contacts: the load keeps drawing magnitude kW, and the meter counts it. */
  private bypass(from: number, to: number, kw: number): void {
    const { month, day } = calendar(from + this.config.localOffsetMs);
    const minute = Math.floor(((((from + this.config.localOffsetMs) % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
    const band = this.tou.scheduleOn(month, day).bandAt(minute);
    const total = this.energy.remainder[band]! + Math.round(kw * 1000) * (to - from);
    const steps = Math.floor(total / STEP);
    this.energy.remainder[band] = total - steps * STEP;
    this.energy.steps[band]! += steps;
    const added = [0, 0, 0, 0];
    added[band] = steps;
    if (this.config.localPrepaid) this.charge(added, to);
  }

  private consumeSpan(from: number, to: number): void {
    const anomaly = this.anomalyAt(from);
    if (this.relayOpen) {
      if (anomaly?.kind === "relay-bypass") this.bypass(from, to, anomaly.magnitude);
      return;
    }
    // advance() never lets [from, to) cross local midnight: one day's table covers it.
    const { month, day } = calendar(from + this.config.localOffsetMs);
    const added = accumulate(
      this.energy,
      this.countedProfile(anomaly),
      this.tou.scheduleOn(month, day),
      from,
      to,
      this.config.localOffsetMs,
    );
    if (this.config.localPrepaid) this.charge(added, to);
  }

  /**
   * Deducts usage (0.01 kWh per band) at the meter's own prices: each band's tariff price, plus the
   * ladder step price of where each 0.01 kWh falls in the cycle's usage. Public so tests and faults
   * can spend a known amount of energy.
   */
  charge(added: readonly number[], now: number): void {
    const cycle = this.cycleOf(now);
    if (cycle !== this.cycleKey) {
      this.cycleKey = cycle;
      this.cycleSteps = 0;
    }
    // steps of 0.01 kWh × price in 0.0001 yuan/kWh = 0.000001 yuan; 10,000 of them are one fen.
    for (let band = 0; band < 4; band++) {
      this.microYuan += added[band]! * this.prices[band]!;
      this.microYuan += this.ladderCost(added[band]!);
    }
    const fen = Math.floor(this.microYuan / 10_000);
    this.microYuan -= fen * 10_000;
    this.balanceFen -= fen;
    if (this.balanceFen <= -this.overdraftLimitFen && !this.powerHold) {
      this.relayOpen = true;
      this.relayCommandOpen = true;
      this.selfTripped = true;
      this.counters.selfTrips++;
    }
  }

  /** Energy measured and charged at once (0.01 kWh per band): a known amount of usage for tests. */
  use(added: readonly number[], now: number): void {
    added.forEach((steps, band) => {
      this.energy.steps[band]! += steps;
    });
    if (this.config.localPrepaid) this.charge(added, now);
  }

  /**
   * Energy measured at `now` (0.01 kWh), registered and charged in the band the meter's own
   * time-of-use tables put in force at its local clock then: usage in a known band for tests.
   */
  useAt(steps: number, now: number): number {
    const local = this.localNow(now);
    const { month, day } = calendar(local);
    const band = this.tou.scheduleOn(month, day).bandAt(Math.floor((local - startOfDay(local)) / 60_000));
    const added = [0, 0, 0, 0];
    added[band] = steps;
    this.use(added, now);
    return band;
  }

  /** The ladder price (0.0001 yuan/kWh × 0.01 kWh) of `steps` more usage in this cycle, moving the cycle on. */
  private ladderCost(steps: number): number {
    let cost = 0;
    let left = steps;
    while (left > 0) {
      const step = this.ladderStep();
      const limit = step < this.ladderThresholds.length ? this.ladderThresholds[step]! : 0;
      const room = limit > 0 ? Math.min(left, limit - this.cycleSteps) : left;
      cost += room * this.ladderPrices[step]!;
      this.cycleSteps += room;
      left -= room;
    }
    return cost;
  }

  /** The ladder step (0-based) the cycle's usage is in: past every threshold it crossed, up to the first 0. */
  private ladderStep(): number {
    let step = 0;
    while (
      step < this.ladderThresholds.length &&
      this.ladderThresholds[step]! > 0 &&
      this.cycleSteps >= this.ladderThresholds[step]!
    )
      step++;
    return step;
  }

  private cycleOf(now: number): string {
    const { year, month } = calendar(this.localNow(now));
    return this.ladderCycle === 1 ? `${year}-${String(month).padStart(2, "0")}` : String(year);
  }

  private freeze(localMidnight: number): void {
    this.frozen.unshift({ localMs: localMidnight, steps: this.shownTariffs() });
    if (this.frozen.length > 62) this.frozen.pop();
  }

  log(kind: Operation["kind"], detail: string, operator: string | null, now: number): void {
    this.operations.push({ kind, detail, operator, at: now });
    if (this.operations.length > 1000) this.operations.shift();
  }

  localCalendar(now: number) {
    return calendar(this.localNow(now));
  }
}
