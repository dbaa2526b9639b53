import { cjt188 } from "@meterline/protocols";
import { calendar } from "./clock.ts";
import { checkConditions, type MeterConditions } from "./conditions.ts";
import type { MeterAnomaly, Operation } from "./electric-meter.ts";
import { type Accumulator, accumulate, newAccumulator, type Profile, SINGLE_BAND, STEP } from "./profile.ts";

const REGISTER_MODULUS = 100_000_000;
const MAX_CATCH_UP_MS = 62 * 86_400_000;

export interface WaterConfig {
  address: string;
  meterType: number;
  /** This model's DI byte order (§2.4). */
  diOrder: cjt188.DiOrder;
  statusMap?: cjt188.StatusBitMap;
  profile: Profile;
  localOffsetMs: number;
  initialSteps?: number;
  /** A motor valve takes this long to move; its status shows the old state until then. */
  valveTravelMs: number;
  batteryLow?: boolean;
  /**
   * True time since which the meter has been running: registers then continue across restarts of
   * the simulation instead of starting again (the demo), catching up however long it was off.
   */
  runningSince?: number;
  /** An injected leak after the meter (anomalies.ts): magnitude m³/h from start, while the valve is open. */
  anomaly?: MeterAnomaly;
}

/** A simulated CJ/T 188 water meter: volume register (0.01 m³ steps), motor valve, settlement-day total. */
export class WaterMeter {
  readonly kind = "water";
  readonly volume: Accumulator;
  valve: "open" | "closed" = "open";
  private moving: { target: "open" | "closed"; until: number } | null = null;
  settlementSteps: number;
  private settlementMonth: number | null = null;
  readonly operations: Operation[] = [];
  readonly counters = { requests: 0, valveOps: 0, refused: 0, writes: 0 };
  /** The price table last written (A010); a new meter holds zeros. */
  priceTable: cjt188.WaterPriceTable = { prices: ["0.00", "0.00", "0.00"], thresholds: ["0", "0"] };
  /** Day of the month the table applies from, as written with it. */
  priceStartDay = 1;
  /** Alarm amounts 1 and 2 (vendor convention A0F1), yuan. */
  alarmAmounts: cjt188.WaterAlarmAmounts = { first: "0.00", second: "0.00" };
  /** Meter-side conditions (battery, valve, clock) the test or the fleet config set. */
  conditions: MeterConditions = {};
  private lastAt: number | null;
  private leakRemainder = 0;

  constructor(readonly config: WaterConfig) {
    this.volume = newAccumulator(1, [config.initialSteps ?? 0]);
    this.settlementSteps = config.initialSteps ?? 0;
    this.lastAt = config.runningSince ?? null;
  }

  get address(): string {
    return this.config.address;
  }

  localNow(now: number): number {
    return now + this.config.localOffsetMs + (this.conditions.clockDriftMinutes ?? 0) * 60_000;
  }

  /** Sets (true, a number) or clears (false, 0) conditions. */
  setConditions(change: MeterConditions): void {
    checkConditions("water", change);
    this.conditions = { ...this.conditions, ...change };
  }

  /** Status ST at `now`: a faulty valve reports abnormal whatever its motor did. */
  statusAt(now: number): cjt188.StatusInput {
    const valve = this.valveAt(now);
    return {
      valve: this.conditions.valveFault ? "abnormal" : valve,
      batteryLow: (this.config.batteryLow ?? false) || this.conditions.batteryLow === true,
    };
  }

  shownVolume(): number {
    return this.volume.steps[0]! % REGISTER_MODULUS;
  }

  /** Valve state as the status word reports it at `now`. */
  valveAt(now: number): "open" | "closed" {
    if (this.moving && now >= this.moving.until) {
      this.valve = this.moving.target;
      this.moving = null;
    }
    return this.valve;
  }

  /** Start moving the valve (a command while moving retargets it). */
  command(target: "open" | "closed", now: number): void {
    this.valveAt(now);
    this.counters.valveOps++;
    if (this.config.valveTravelMs <= 0) this.valve = target;
    else this.moving = { target, until: now + this.config.valveTravelMs };
  }

  advance(now: number): void {
    let from = this.lastAt ?? now;
    this.lastAt = now;
    if (this.config.runningSince === undefined && now - from > MAX_CATCH_UP_MS) from = now - MAX_CATCH_UP_MS;
    // Water flows while the valve is open (a closing valve still passes water until it is shut).
    const shutAt = this.moving?.target === "closed" ? this.moving.until : null;
    if (this.valve === "open" || this.moving?.target === "open") {
      const start = this.moving?.target === "open" ? Math.max(from, this.moving.until) : from;
      const end = shutAt === null ? now : Math.min(now, shutAt);
      if (end > start)
        accumulate(this.volume, this.config.profile, SINGLE_BAND, start, end, this.config.localOffsetMs);
      const leak = this.config.anomaly?.kind === "leak" ? this.config.anomaly : undefined;
      const leakFrom = leak ? Math.max(start, leak.start) : end;
      if (leak && end > leakFrom) {
        // m³/h × 1000 is L/h: one STEP of L/h × ms is 0.01 m³.
        const total = this.leakRemainder + Math.round(leak.magnitude * 1000) * (end - leakFrom);
        const steps = Math.floor(total / STEP);
        this.leakRemainder = total - steps * STEP;
        this.volume.steps[0]! += steps;
      }
    }
    this.valveAt(now);
    // Settlement day: the 1st of each month at 00:00 local; the total keeps the value at that moment.
    const month = calendar(this.localNow(now)).month;
    if (this.settlementMonth !== null && month !== this.settlementMonth)
      this.settlementSteps = this.volume.steps[0]!;
    this.settlementMonth = month;
  }

  log(detail: string, now: number, kind: "valve" | "write" = "valve"): void {
    this.operations.push({ kind, detail, operator: null, at: now });
    if (this.operations.length > 1000) this.operations.shift();
  }
}

/** The meter's answer to one CJ/T 188 request addressed to it. */
export function answerWater(
  meter: WaterMeter,
  decoded: cjt188.Cjt188Decoded,
  now: number,
): Uint8Array | null {
  meter.advance(now);
  meter.counters.requests++;
  const { address, config } = meter;
  const message = decoded.message;
  const ser = "ser" in message && message.ser !== null ? message.ser : 0;
  const options = { ser, meterType: config.meterType, diOrder: config.diOrder, statusMap: config.statusMap };
  const status = () => meter.statusAt(now);
  switch (message.kind) {
    case "read-data-request":
      if (message.di === "8102") return cjt188.buildPriceTableReply(address, meter.priceTable, options);
      if (message.di === "81F1") return cjt188.buildAlarmAmountsReply(address, meter.alarmAmounts, options);
      if (message.di !== "901F") break;
      return cjt188.buildReadDataReply(
        address,
        {
          currentTotal: formatSteps(meter.shownVolume()),
          settlementDayTotal: formatSteps(meter.settlementSteps % REGISTER_MODULUS),
          time: calendar(meter.localNow(now)),
          status: status(),
        },
        options,
      );
    case "read-address-request":
      return cjt188.buildReadAddressReply(address, options);
    case "write-request": {
      // Parameter writes are kept as written and acknowledged with the status, like a valve command.
      if (message.priceWrite) {
        const { startDay, ...table } = message.priceWrite;
        meter.priceTable = table;
        meter.priceStartDay = startDay;
      } else if (message.alarmAmounts) meter.alarmAmounts = message.alarmAmounts;
      else break;
      meter.counters.writes++;
      meter.log(`${message.di} ${message.data}`, now, "write");
      return cjt188.buildWriteReply(address, message.di, status(), options);
    }
    case "valve-control-request": {
      if (message.command !== "open" && message.command !== "close") break;
      const target = message.command === "open" ? "open" : "closed";
      meter.command(target, now);
      meter.log(message.command, now);
      // The reply reports the valve as it is now: a motor valve is still on its way.
      return cjt188.buildValveControlReply(address, status(), options);
    }
  }
  meter.counters.refused++;
  return cjt188.buildErrorReply(address, decoded.control.function, status(), options);
}

function formatSteps(steps: number): string {
  return `${Math.floor(steps / 100)}.${String(steps % 100).padStart(2, "0")}`;
}
