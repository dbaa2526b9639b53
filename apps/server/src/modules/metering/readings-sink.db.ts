import type { MeterFileEvent, MeterReading, PresenceEvent, ReadingsSink } from "@meterline/gateway";
import type { Db } from "../../db/client.ts";
import type { MeterFilter } from "../alarm/alarm.repository.ts";
import { evaluateTenant } from "../alarm/alarm.service.ts";
import { priceBatch } from "../money/batch-pricing.ts";
import { DEFAULT_PRICED_ACCOUNTS, PricedAccountMemory } from "../money/priced-accounts.ts";
import { shadowReading } from "../money/shadow-balance.ts";
import type { PricedReading } from "../money/usage-pricing.ts";
import type { MeterPlace } from "./current-data-batch.db.ts";
import { cachedPlaces } from "./meter-places.ts";
import { MAX_BATCH, type Pending, pricedReadingOf, storeWave, wavesOf } from "./reading-batch.ts";

export interface SinkOptions {
  /**
   * A reading's caller hears as soon as it is stored (committed), not after it is priced and
   * judged: the gateway's DTU sessions then poll on while the stage behind prices the wave, so
   * storing and pricing run side by side. Safe for money: pricing goes by registers (a reading
   * charges everything since the account's priced position), so a pricing lost to a crash after the
   * store is charged by the meter's next reading, and the alarm pass runs periodically as well.
   * Without it (tests, one-off callers) a reading is heard of once priced and judged.
   */
  acknowledgeStored?: boolean;
  /**
   * How many priced accounts the sink remembers as it last wrote them (money/priced-accounts.ts),
   * so pricing a wave of their meters need not read them again: about 1 kB each (962 bytes
   * measured; GATEWAY_PRICED_ACCOUNTS in the gateway). 0 remembers none.
   */
  rememberedAccounts?: number;
}

/**
 * Where the gateway's polls land: the latest values of each meter (pms_meter_current_data, one row
 * per meter) and the meter's online and supply state; collector presence marks the collector and
 * its meters online or offline.
 */
export class DbReadingsSink implements ReadingsSink {
  /** `timeZone`: the tenants' zone, whose midnights divide daily usage (design.md §5 "Time"). */
  constructor(
    private readonly db: Db,
    private readonly timeZone = "Asia/Shanghai",
    private readonly options: SinkOptions = {},
  ) {
    this.pricedAccounts = new PricedAccountMemory(options.rememberedAccounts ?? DEFAULT_PRICED_ACCOUNTS);
  }

  /** The priced accounts as this sink's pricing last wrote them. */
  private readonly pricedAccounts: PricedAccountMemory;

  /** Waves stored and the readings in them (a wave's size is what each statement carries): benches read them. */
  readonly counts = { waves: 0, readings: 0 };

  /** Readings waiting for the batch being written to finish, each with its caller's promise. */
  private queue: Pending[] = [];
  /** While the queue is being drained: settles when it is empty. */
  private draining: Promise<void> | undefined;

  /**
   * Stores, prices and judges a reading; settles when it is priced and judged, or once stored with
   * `acknowledgeStored`. Readings that arrive while a batch is
   * being written wait and leave together as the next batch (group commit: bounded by MAX_BATCH,
   * and by time as each batch leaves as soon as the one before it is written), so a quiet site
   * writes each reading at once and a busy one amortises every statement over hundreds.
   */
  record(reading: MeterReading): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ reading, resolve, reject });
      this.draining ??= new Promise<void>((settled) =>
        setImmediate(() => void this.drain().then(settled, settled)),
      );
    });
  }

  /**
   * Waves are stored one after another, and behind the store two more stages run in order, each on
   * its own connection: pricing (with the shadow balances of local-prepaid meters), then the alarm
   * pass. Waves n+1 and n+2 are stored while wave n is priced and judged, so the database works on
   * three things at once; a meter's readings are priced and judged in the order they came. The
   * store goes on past a wave still being priced (pricing a wave costs about what storing one does,
   * and the two now overlap whole) but waits for the alarm pass two waves back, which follows that
   * wave's pricing: nothing piles up beyond two waves.
   */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      for (const wave of wavesOf(batch)) {
        const placed = await this.storeStage(wave);
        if (this.judgesBehind.length > 1) await this.judgesBehind.shift();
        if (placed) this.judgesBehind.push(this.followUp(placed));
      }
    }
    this.draining = undefined;
  }

  /**
   * Settles when everything handed over so far is stored, priced and judged (a stopping gateway, a
   * bench or test that reads what was booked).
   */
  async idle(): Promise<void> {
    while (this.draining || this.followingUp.size > 0)
      await Promise.all([this.draining, ...this.followingUp]);
  }

  /** The last wave's pricing stage and alarm pass: the next wave's wait for them (they never fail). */
  private pricing: Promise<void> = Promise.resolve();
  private judging: Promise<void> = Promise.resolve();
  /** Alarm passes of the waves the queue handed on, not yet known to be done. */
  private readonly judgesBehind: Promise<void>[] = [];
  /** Follow-up stages under way, whoever started them (the queue, a fallback, a one-off): `idle` waits for them. */
  private readonly followingUp = new Set<Promise<void>>();

  /** A wave written whole (stored, then priced and judged), apart from the queue. */
  private async writeWave(wave: Pending[]): Promise<void> {
    const placed = await this.storeStage(wave);
    if (placed) await this.followUp(placed);
  }

  /**
   * A wave (each meter once) stored by set-based statements: the meters' places (through the
   * shared cache of the sink's database handle when it has one, meter-places.ts), then the reading
   * itself (current values, online and supply state, the log, daily usage, the day's power) in one
   * transaction. Answers the readings left for the stages behind. A wave whose storing fails is
   * written again reading by reading, so one bad row fails alone and the rest are stored.
   */
  private async storeStage(wave: Pending[]): Promise<Pending[] | undefined> {
    let places: Map<string, MeterPlace>;
    try {
      const ids = wave.map((p) => p.reading.meterId);
      places = await cachedPlaces(this.db, ids);
    } catch (error) {
      for (const pending of wave) pending.reject(error);
      return undefined;
    }
    for (const pending of wave) pending.place = places.get(pending.reading.meterId);
    const placed = wave.filter((p) => p.place);
    for (const pending of wave) if (!pending.place) pending.resolve();
    if (placed.length === 0) return undefined;
    let storeError: unknown;
    const stored = await this.db
      .transaction((tx) =>
        storeWave(
          tx,
          placed.map((p) => ({ reading: p.reading, place: p.place! })),
          this.timeZone,
        ),
      )
      .then(
        () => true,
        (error: unknown) => {
          storeError = error;
          return false;
        },
      );
    if (!stored) {
      // Alone, the reading that failed fails; in company, each is tried again by itself (in the
      // order of pricing: each one's stages queue behind the waves before it).
      if (placed.length === 1) placed[0]!.reject(storeError);
      else for (const pending of placed) await this.writeWave([pending]);
      return undefined;
    }
    this.counts.waves++;
    this.counts.readings += placed.length;
    // Heard now; what the stages behind answer later changes nothing for a settled promise.
    if (this.options.acknowledgeStored) for (const pending of placed) pending.resolve();
    return placed;
  }

  /**
   * The stages behind a stored wave, each after the same stage of the wave before: pricing (one
   * statement for its priced meters, two side by side for a large wave: batch-pricing.ts) with the
   * shadow balances of local-prepaid meters, then the alarm pass; then each reading's caller hears
   * (unless it heard once stored). Answers the alarm pass's end; never fails.
   */
  private followUp(placed: Pending[]): Promise<void> {
    const failed = new Map<Pending, unknown>();
    const priced = this.pricing.then(() => this.priceStage(placed, failed));
    const judged = Promise.all([priced, this.judging]).then(() => this.judgeStage(placed, failed));
    const run = judged.catch((error: unknown) => {
      // Not expected (each step answers for itself), but no caller may wait for ever.
      for (const pending of placed) pending.reject(error);
    });
    this.pricing = priced.catch(() => undefined);
    this.judging = run;
    this.followingUp.add(run);
    void run.then(() => this.followingUp.delete(run));
    return run;
  }

  private async priceStage(placed: Pending[], failed: Map<Pending, unknown>): Promise<void> {
    const readings: PricedReading[] = [];
    for (const pending of placed) {
      const one = pending.place!.priced ? pricedReadingOf(pending.reading, pending.place!) : undefined;
      if (one) readings.push(one);
    }
    await priceBatch(this.db, readings, this.timeZone, this.pricedAccounts).catch(() => undefined);
    for (const pending of placed) {
      const place = pending.place!;
      if (place.priced) continue;
      await this.shadow(place, pending.reading).catch((error: unknown) => failed.set(pending, error));
    }
  }

  private async judgeStage(placed: Pending[], failed: Map<Pending, unknown>): Promise<void> {
    await this.evaluate(placed.map((p) => ({ reading: p.reading, place: p.place! })));
    for (const pending of placed) {
      if (failed.has(pending)) pending.reject(failed.get(pending));
      else pending.resolve();
    }
  }

  /** A local-prepaid meter keeps its own balance: the account shadows it (and learns its purchase count). */
  private async shadow(place: MeterPlace, reading: MeterReading): Promise<void> {
    if (reading.balance === undefined && reading.purchaseCount === undefined) return;
    await shadowReading(
      this.db,
      {
        tenantId: place.tenantId,
        meterId: reading.meterId,
        at: reading.at,
        balance: reading.balance,
        overdraft: reading.overdraft,
        purchaseCount: reading.purchaseCount,
        total: reading.energy?.total,
      },
      this.timeZone,
    );
  }

  /**
   * The wave's meters' alarms follow their new state (back online, registers, balance after
   * pricing): each tenant's rules read once and judged over its meters of the wave at the latest
   * reading's time. A failure here loses nothing: the readings are stored and the periodic pass
   * evaluates them again.
   */
  private async evaluate(placed: readonly { reading: MeterReading; place: MeterPlace }[]): Promise<void> {
    const tenants = new Map<string, { at: Date; meters: MeterFilter[] }>();
    for (const { reading, place } of placed) {
      const tenant = tenants.get(place.tenantId) ?? { at: reading.at, meters: [] };
      if (reading.at > tenant.at) tenant.at = reading.at;
      tenant.meters.push({ energyType: place.energyType, meterId: reading.meterId });
      tenants.set(place.tenantId, tenant);
    }
    for (const [tenantId, { at, meters }] of tenants)
      await evaluateTenant(this.db, tenantId, at, meters, this.timeZone).catch(() => undefined);
  }

  /**
   * One reading written as a wave of its own, whatever else is queued (a wave's fallback, and the
   * bench's reference for writing readings one at a time).
   */
  recordOne(reading: MeterReading): Promise<void> {
    return new Promise<void>((resolve, reject) => void this.writeWave([{ reading, resolve, reject }]));
  }

  async presence(event: PresenceEvent): Promise<void> {
    const online = event.online ? 1 : 0;
    await this.db.query(
      `update pms_collector set online_status = $2, last_online_time = case when $2 = 1 then $3 else last_online_time end
        where collector_code = $1 and is_deleted = 0`,
      [event.collectorId, online, event.at],
    );
    if (event.meterIds.length === 0) return;
    for (const table of ["pms_meter", "pms_water"]) {
      await this.db.query(`update ${table} set online_status = $2 where id = any($1::bigint[])`, [
        event.meterIds,
        online,
      ]);
    }
  }

  async meterFile(event: MeterFileEvent): Promise<void> {
    await this.db.query(
      `insert into pms_collector_meter_file (collector_code, meter_file, file_time) values ($1, $2::jsonb, $3)
       on conflict (collector_code) do update set meter_file = excluded.meter_file, file_time = excluded.file_time`,
      [event.collectorId, JSON.stringify(event.rows), event.at],
    );
  }
}
