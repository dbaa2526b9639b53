import type {
  EnergyRegisters,
  MeterFileEvent,
  MeterReading,
  PresenceEvent,
  ReadingsSink,
} from "@meterline/gateway";
import { CHANGE_CHANNEL } from "../../db/cache-channel.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { evaluateTenant } from "../alarm/alarm.service.ts";
import { shadowReading } from "../money/shadow-balance.ts";
import { priceReading } from "../money/usage-pricing.ts";
import { conditionFacts } from "./condition-facts.ts";
import {
  type DailyTarget,
  type ElectricRegisters,
  electricDayFreeze,
  electricDayRead,
  waterDayRead,
} from "./daily-usage.db.ts";
import { type DayPower, keepDayPowers } from "./day-power.db.ts";
import {
  type ElectricRead,
  GroupInsert,
  insertElectricReads,
  insertWaterReads,
  type WaterRead,
} from "./reading-log.db.ts";
import { localDay } from "./usage-periods.ts";

/** The meter's supply as SWITCH_STATUS: 0 on (relay closed, valve open), 1 off. */
function supplyOf(reading: MeterReading): number | null {
  if (reading.relay === "closed" || reading.valve === "open") return 0;
  if (reading.relay === "open" || reading.valve === "closed") return 1;
  return null;
}

/** Two decimals, exactly: registers come as decimal text with more places than the table keeps. */
const cents = (value: string | undefined) => {
  if (value === undefined) return null;
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(value);
  return match ? `${match[1]}.${(match[2] ?? "").padEnd(2, "0").slice(0, 2)}` : null;
};

/** Total and bands in the table's exact form, or undefined without a total. */
function registersOf(energy: EnergyRegisters): ElectricRegisters | undefined {
  const total = cents(energy.total);
  if (total === null) return undefined;
  const [tip, peak, peace, low] = [0, 1, 2, 3].map((i) => cents(energy.tariffs[i]));
  return [total, tip ?? null, peak ?? null, peace ?? null, low ?? null];
}

/**
 * Where the gateway's polls land: the latest values of each meter (pms_meter_current_data, one row
 * per meter) and the meter's online and supply state; collector presence marks the collector and
 * its meters online or offline.
 */
export class DbReadingsSink implements ReadingsSink {
  /** Reads that arrive together (many sessions, one turn of the event loop) share one insert. */
  private readonly electricLog = new GroupInsert<ElectricRead>((rows) => insertElectricReads(this.db, rows));
  private readonly waterLog = new GroupInsert<WaterRead>((rows) => insertWaterReads(this.db, rows));
  /** Each electric meter's highest power of the day, beside its daily usage, batched as the log is. */
  private readonly dayPower = new GroupInsert<DayPower>((rows) => keepDayPowers(this.db, rows));

  /** `timeZone`: the tenants' zone, whose midnights divide daily usage (design.md §5 "Time"). */
  constructor(
    private readonly db: Db,
    private readonly timeZone = "Asia/Shanghai",
  ) {}

  async record(reading: MeterReading): Promise<void> {
    const [meter] = await this.db.query<{
      tenant_id: string;
      energy_type: number;
      room_id: string | null;
      /** The server keeps this meter's balance: its readings are priced. */
      priced: boolean;
    }>(
      `select m.tenant_id, m.energy_type, (select rm.room_id from pms_room_meter rm
          where rm.meter_id = m.id and rm.energy_type = m.energy_type and rm.is_deleted = 0 limit 1) as room_id,
              exists (select 1 from pms_account a where a.tenant_id = m.tenant_id and a.energy_type = m.energy_type
                         and a.meter_id = m.id and a.status = 1 and a.control_status = 1) as priced
         from (select id, tenant_id, 1 as energy_type from pms_meter where id = $1
               union all select id, tenant_id, 2 from pms_water where id = $1) m`,
      [reading.meterId],
    );
    if (!meter) return;
    const energy = reading.energy;
    const supply = supplyOf(reading);
    const facts = conditionFacts(reading, this.timeZone);
    // The alarm rules' facts: a cover-open count that rose since the last read stamps the time it
    // was seen (the first count is the baseline), and a relay stuck open-commanded keeps the time it
    // was first seen so until the word agrees again.
    await this.db.query(
      `insert into pms_meter_current_data
         (id, tenant_id, energy_type, meter_id, product_code, read_time, total_value, tip_value, peak_value,
          peace_value, low_value, balance, overdraft, switch_status, status_word, battery_low, meter_time, missing,
          status_word1, active_power, clock_offset, cover_open_count, relay_stuck_time, valve_fault)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
               $19, $20, $21, $22, case when $23::boolean then $6::timestamptz end, $24)
       on conflict (tenant_id, meter_id, energy_type) do update set
         read_time = excluded.read_time,
         -- A fresh read shows a hidden meter again (metercurrentdata/remove); who hid it stays.
         hidden = 0,
         total_value = coalesce(excluded.total_value, pms_meter_current_data.total_value),
         tip_value = coalesce(excluded.tip_value, pms_meter_current_data.tip_value),
         peak_value = coalesce(excluded.peak_value, pms_meter_current_data.peak_value),
         peace_value = coalesce(excluded.peace_value, pms_meter_current_data.peace_value),
         low_value = coalesce(excluded.low_value, pms_meter_current_data.low_value),
         balance = coalesce(excluded.balance, pms_meter_current_data.balance),
         overdraft = coalesce(excluded.overdraft, pms_meter_current_data.overdraft),
         switch_status = coalesce(excluded.switch_status, pms_meter_current_data.switch_status),
         status_word = coalesce(excluded.status_word, pms_meter_current_data.status_word),
         battery_low = coalesce(excluded.battery_low, pms_meter_current_data.battery_low),
         meter_time = coalesce(excluded.meter_time, pms_meter_current_data.meter_time),
         missing = excluded.missing,
         status_word1 = coalesce(excluded.status_word1, pms_meter_current_data.status_word1),
         active_power = coalesce(excluded.active_power, pms_meter_current_data.active_power),
         clock_offset = coalesce(excluded.clock_offset, pms_meter_current_data.clock_offset),
         cover_open_count = coalesce(excluded.cover_open_count, pms_meter_current_data.cover_open_count),
         cover_open_time = case when excluded.cover_open_count > pms_meter_current_data.cover_open_count
                                then excluded.read_time else pms_meter_current_data.cover_open_time end,
         relay_stuck_time = case when $23::boolean is null then pms_meter_current_data.relay_stuck_time
                                 when $23::boolean then coalesce(pms_meter_current_data.relay_stuck_time, excluded.read_time) end,
         valve_fault = coalesce(excluded.valve_fault, pms_meter_current_data.valve_fault)`,
      [
        nextId(),
        meter.tenant_id,
        meter.energy_type,
        reading.meterId,
        reading.address,
        reading.at,
        cents(energy?.total ?? reading.volume),
        cents(energy?.tariffs[0]),
        cents(energy?.tariffs[1]),
        cents(energy?.tariffs[2]),
        cents(energy?.tariffs[3]),
        cents(reading.balance),
        cents(reading.overdraft),
        supply,
        reading.statusWord3 ?? null,
        reading.batteryLow === undefined ? null : reading.batteryLow ? 1 : 0,
        reading.meterTime ?? null,
        reading.missing.join(",").slice(0, 255),
        facts.statusWord1,
        facts.activePower,
        facts.clockOffset,
        facts.coverOpenCount,
        facts.relayStuck,
        facts.valveFault,
      ],
    );
    const table = meter.energy_type === 1 ? "pms_meter" : "pms_water";
    // A supply the meter reports otherwise than known (switched on site, or a command's outcome read
    // back) is announced to open pages (modules/live), as a command's outcome is.
    await this.db.query(
      `with before as (select switch_status from ${table} where id = $1),
            after as (update ${table} set online_status = 1, switch_status = coalesce($2, switch_status) where id = $1
                      returning tenant_id, switch_status)
       select pg_notify($3, meterline_live_message(after.tenant_id, 'supply', json_build_array($1::text), 1))
         from after, before where after.switch_status is distinct from before.switch_status`,
      [reading.meterId, supply, CHANGE_CHANNEL],
    );
    const target = {
      tenantId: meter.tenant_id,
      meterId: reading.meterId,
      roomId: meter.room_id,
      productCode: reading.address,
    };
    if (meter.energy_type === 1) await this.electricHistory(target, reading, supply, facts.activePower);
    else await this.waterHistory(target, reading, supply);
    if (meter.priced) await this.price(meter.tenant_id, meter.energy_type, reading);
    // A local-prepaid meter keeps its own balance: the account shadows it (and learns its purchase count).
    else if (reading.balance !== undefined || reading.purchaseCount !== undefined)
      await shadowReading(
        this.db,
        {
          tenantId: meter.tenant_id,
          meterId: reading.meterId,
          at: reading.at,
          balance: reading.balance,
          overdraft: reading.overdraft,
          purchaseCount: reading.purchaseCount,
          total: reading.energy?.total,
        },
        this.timeZone,
      );
    // The meter's alarms follow its new state (back online, register, balance after pricing). A
    // failure here loses nothing: the reading is stored and the periodic pass evaluates it again.
    await evaluateTenant(
      this.db,
      meter.tenant_id,
      reading.at,
      { energyType: meter.energy_type === 1 ? 1 : 2, meterId: reading.meterId },
      this.timeZone,
    ).catch(() => undefined);
  }

  /**
   * Usage of accounts the server keeps is priced as readings arrive (design.md §5 "Money flows"),
   * after the reading itself is stored: a failure here leaves the step to the next reading.
   */
  private async price(tenantId: string, energyType: number, reading: MeterReading) {
    const total = energyType === 1 ? reading.energy && cents(reading.energy.total) : cents(reading.volume);
    if (!total) return;
    const tariffs = energyType === 1 ? (reading.energy?.tariffs ?? []) : [];
    await priceReading(
      this.db,
      {
        tenantId,
        energyType: energyType === 1 ? 1 : 2,
        meterId: reading.meterId,
        at: reading.at,
        registers: {
          total,
          bands: {
            tip: cents(tariffs[0]),
            peak: cents(tariffs[1]),
            peace: cents(tariffs[2]),
            low: cents(tariffs[3]),
          },
        },
      },
      this.timeZone,
    );
  }

  /** The reading log row, the daily usage and the day's highest power of an electric meter's read. */
  private async electricHistory(
    target: DailyTarget,
    reading: MeterReading,
    supply: number | null,
    activePower: string | null,
  ) {
    const frozen = reading.dailyFrozen;
    const frozenDay = /^\d{4}-\d{2}-\d{2}/.exec(frozen?.time ?? "")?.[0];
    const frozenRegisters = frozen && registersOf(frozen.energy);
    const registers = reading.energy && registersOf(reading.energy);
    // The log first: it is what daily usage is recomputed from (datadailydd/submit), should the
    // daily step below fail.
    if (registers)
      await this.electricLog.add({
        id: nextId(),
        ...target,
        readTime: reading.at,
        registers,
        balance: cents(reading.balance),
        switchStatus: supply,
        missing: reading.missing.join(",").slice(0, 255),
      });
    // A load shown on a day whose register stands still is what the suspects sweep looks for.
    if (activePower !== null)
      await this.dayPower.add({
        tenantId: target.tenantId,
        meterId: target.meterId,
        day: localDay(reading.at, this.timeZone),
        powerKw: activePower,
        at: reading.at,
      });
    // One transaction: a freeze moves the day's start, the read its end; a reader in between would
    // see a start above the end, a day of negative use.
    await this.db.transaction(async (tx) => {
      // The freeze first: it opens today and closes yesterday before today's read moves the end.
      if (frozenDay && frozenRegisters)
        await electricDayFreeze(tx, target, frozenDay, frozenRegisters, reading.at);
      if (registers)
        await electricDayRead(tx, target, localDay(reading.at, this.timeZone), registers, reading.at);
    });
  }

  /** The reading log row and the daily usage of a water meter's read. */
  private async waterHistory(target: DailyTarget, reading: MeterReading, supply: number | null) {
    const volume = cents(reading.volume);
    if (volume === null) return;
    await this.waterLog.add({
      id: nextId(),
      ...target,
      readTime: reading.at,
      totalValue: volume,
      switchStatus: supply,
      batteryLow: reading.batteryLow === undefined ? null : reading.batteryLow ? 1 : 0,
      missing: reading.missing.join(",").slice(0, 255),
    });
    await waterDayRead(this.db, target, localDay(reading.at, this.timeZone), volume, reading.at);
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
