import { ApiError, badRequest, notFound } from "../../contract/errors.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { type CorrectionOutcome, correctPricedReading } from "../money/usage-correction.ts";
import { type DailyTarget, electricDayRead, waterDayRead } from "./daily-usage.db.ts";
import { ELECTRIC_TABLES, recomputeDay, WATER_TABLES } from "./day-recompute.db.ts";
import { isDay, localDay } from "./usage-periods.ts";

export type EnergyKind = "electric" | "water";

/** A read entered by hand: registers as exact decimal text, the time in the tenant's zone. */
export interface ManualRead {
  meterId: string;
  /** `yyyy-MM-dd HH:mm[:ss]` of the tenant's wall clock; now when absent. */
  readTime?: string;
  totalValue: string;
  /** Electric only: tip, peak, flat and valley, each optional. */
  bands: readonly (string | null)[];
}

const METER_TABLE = { electric: "pms_meter", water: "pms_water" } as const;
const ENERGY_TYPE = { electric: 1, water: 2 } as const;
const TABLES = { electric: ELECTRIC_TABLES, water: WATER_TABLES } as const;

const operatorOf = (user: CurrentUser) => (user.realName || user.userName || user.account).slice(0, 64);

/**
 * The caller's data scope over meters as a query predicate on the meter row (alias given), values
 * bound through `sql`; undefined when the scope reaches every meter. A meter outside reads as absent.
 */
export type MeterScope = (sql: SqlParams, alias: string) => string | undefined;

export interface CorrectionOptions {
  scope?: MeterScope;
}

/**
 * Operator corrections of the reading logs (spec §7 dataread, waterdataread submit and remove), audited:
 * a manual read joins the log marked `manual` with its operator and feeds daily usage as a
 * gateway read does; a void keeps the read, marked, with who and why, and recomputes its day.
 * On a meter whose balance the server keeps, the money charged on the reads follows: the span is
 * re-priced and the difference booked as one correction entry (money/usage-correction.ts).
 */
export class ReadingCorrections {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  async submit(
    user: CurrentUser,
    tenantId: string,
    kind: EnergyKind,
    read: ManualRead,
    options: CorrectionOptions = {},
  ): Promise<string> {
    return (await this.submitWithMoney(user, tenantId, kind, read, options)).id;
  }

  /** submit, answering also the money booked when the meter's account is priced by the server. */
  async submitWithMoney(
    user: CurrentUser,
    tenantId: string,
    kind: EnergyKind,
    read: ManualRead,
    options: CorrectionOptions = {},
  ): Promise<{ id: string; money?: CorrectionOutcome }> {
    const tables = TABLES[kind];
    return this.db.transaction(async (tx) => {
      const target = await this.lockMeter(tx, tenantId, kind, read.meterId, options.scope);
      const at = await this.instantOf(tx, read.readTime);
      const [before] = await tx.query<{ total_value: string; read_time: Date }>(
        `select total_value, read_time from ${tables.log}
          where tenant_id = $1 and meter_id = $2 and coalesce(voided, 0) = 0 and read_time <= $3
            and total_value > $4::numeric
          order by read_time desc limit 1`,
        [tenantId, read.meterId, at, read.totalValue],
      );
      if (before)
        throw badRequest(
          `totalValue: 示数 ${read.totalValue} 低于 ${this.wallTime(before.read_time)} 的抄读 ${before.total_value},不能录入`,
        );
      const [after] = await tx.query<{ total_value: string; read_time: Date }>(
        `select total_value, read_time from ${tables.log}
          where tenant_id = $1 and meter_id = $2 and coalesce(voided, 0) = 0 and read_time > $3
            and total_value < $4::numeric
          order by read_time limit 1`,
        [tenantId, read.meterId, at, read.totalValue],
      );
      if (after)
        throw badRequest(
          `totalValue: 示数 ${read.totalValue} 高于之后 ${this.wallTime(after.read_time)} 的抄读 ${after.total_value},不能录入`,
        );
      const id = nextId();
      const bandColumns = tables.bands.map((b) => b.read);
      const bands = tables.bands.map((_, i) => read.bands[i] ?? null);
      const columns = [
        "id",
        "tenant_id",
        "meter_id",
        "room_id",
        "product_code",
        "read_time",
        "total_value",
        ...bandColumns,
        "source",
        "operator_name",
        "voided",
      ];
      const apply = async () => {
        await tx.query(
          `insert into ${tables.log} (${columns.join(", ")}) values (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
          [
            id,
            tenantId,
            read.meterId,
            target.roomId,
            target.productCode,
            at,
            read.totalValue,
            ...bands,
            "manual",
            operatorOf(user),
            0,
          ],
        );
        const day = localDay(at, this.timeZone);
        const [opened] = await tx.query(
          `select 1 from ${tables.daily} where tenant_id = $1 and meter_id = $2 and day_date = $3::date`,
          [tenantId, read.meterId, day],
        );
        // A day not opened yet opens exactly as a gateway read opens it; an existing one (perhaps
        // closed) is recomputed from its reads, the new one among them.
        if (!opened) {
          if (kind === "electric") {
            const [tip = null, peak = null, peace = null, low = null] = bands;
            await electricDayRead(tx, target, day, [read.totalValue, tip, peak, peace, low], at);
          } else await waterDayRead(tx, target, day, read.totalValue, at);
        } else await recomputeDay(tx, tables, tenantId, read.meterId, day, this.timeZone);
      };
      const money = await correctPricedReading(
        tx,
        {
          kind: "manual",
          tenantId,
          energyType: ENERGY_TYPE[kind],
          meterId: read.meterId,
          log: tables.log,
          readingId: id,
          readTime: at,
          totalValue: read.totalValue,
          bands,
          cause: `补录抄读 ${this.wallTime(at)} 示数 ${read.totalValue}`,
          apply,
        },
        { userId: user.userId, name: operatorOf(user) },
        this.timeZone,
      );
      return money ? { id, money } : { id };
    });
  }

  /**
   * Voids reads of the tenant by id, all or none: an id not the tenant's, or whose meter is outside
   * the caller's data scope, is a 404; a read voided already is refused (its first void stands and
   * nothing is booked twice). Answers the money booked on priced meters, one entry per read.
   */
  async void(
    user: CurrentUser,
    tenantId: string,
    kind: EnergyKind,
    ids: string[],
    reason: string,
    options: CorrectionOptions = {},
  ): Promise<CorrectionOutcome[]> {
    const tables = TABLES[kind];
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{
        id: string;
        meter_id: string;
        read_time: Date;
        total_value: string;
        voided: number | null;
      }>(
        `select id::text, meter_id::text, read_time, total_value::text, voided from ${tables.log}
          where tenant_id = $1 and id = any($2::bigint[]) order by read_time, id for update`,
        [tenantId, ids],
      );
      if (rows.length !== new Set(ids).size) throw notFound("ids: 抄读记录不存在");
      const again = rows.find((row) => row.voided === 1);
      if (again) throw badRequest(`ids: 抄读记录 ${again.id} 已作废,不能重复作废`);
      const days = new Map<string, { meterId: string; day: string }>();
      const booked: CorrectionOutcome[] = [];
      for (const row of rows) {
        try {
          await this.lockMeter(tx, tenantId, kind, row.meter_id, options.scope);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) throw notFound("ids: 抄读记录不存在");
          throw error;
        }
        const money = await correctPricedReading(
          tx,
          {
            kind: "void",
            tenantId,
            energyType: ENERGY_TYPE[kind],
            meterId: row.meter_id,
            log: tables.log,
            readingId: row.id,
            readTime: row.read_time,
            totalValue: row.total_value,
            cause: `作废抄读 ${this.wallTime(row.read_time)} 示数 ${row.total_value}: ${reason}`,
            apply: async () => {
              await tx.query(
                `update ${tables.log} set voided = 1, void_reason = $2, void_user = $3, void_time = now() where id = $1`,
                [row.id, reason, operatorOf(user)],
              );
            },
          },
          { userId: user.userId, name: operatorOf(user) },
          this.timeZone,
        );
        if (money) booked.push(money);
        const day = localDay(row.read_time, this.timeZone);
        days.set(`${row.meter_id}/${day}`, { meterId: row.meter_id, day });
      }
      for (const { meterId, day } of days.values())
        await recomputeDay(tx, tables, tenantId, meterId, day, this.timeZone);
      return booked;
    });
  }

  /**
   * Recomputes one electric day row (datadailydd) from the reads that count. Usage is never typed in:
   * it always follows from the reads, so correcting a day means entering or voiding reads.
   */
  async recomputeDailyRow(tenantId: string, id: string, options: CorrectionOptions = {}): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ meter_id: string; day: string }>(
        "select meter_id::text, to_char(day_date, 'YYYY-MM-DD') as day from pms_data_daily where id = $1 and tenant_id = $2",
        [id, tenantId],
      );
      if (!row) throw notFound("id: 日用量记录不存在");
      try {
        await this.lockMeter(tx, tenantId, "electric", row.meter_id, options.scope);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) throw notFound("id: 日用量记录不存在");
        throw error;
      }
      await recomputeDay(tx, ELECTRIC_TABLES, tenantId, row.meter_id, row.day, this.timeZone);
    });
  }

  /** The meter of the tenant within the caller's data scope, locked for the correction. */
  private async lockMeter(
    tx: Queryable,
    tenantId: string,
    kind: EnergyKind,
    meterId: string,
    scope?: MeterScope,
  ) {
    const sql = new SqlParams();
    const id = sql.bind(meterId);
    const tenant = sql.bind(tenantId);
    const energy = sql.bind(ENERGY_TYPE[kind]);
    const inScope = scope?.(sql, "m");
    const [meter] = await tx.query<{ product_code: string; room_id: string | null }>(
      `select m.product_code,
              (select rm.room_id from pms_room_meter rm
                where rm.meter_id = m.id and rm.energy_type = ${energy} and rm.is_deleted = 0 limit 1) as room_id
         from ${METER_TABLE[kind]} m where m.id = ${id} and m.tenant_id = ${tenant} and m.is_deleted = 0
          ${inScope ? `and ${inScope}` : ""} for update of m`,
      sql.values,
    );
    if (!meter) throw notFound("meterId: 表不存在");
    const target: DailyTarget = {
      tenantId,
      meterId,
      roomId: meter.room_id,
      productCode: meter.product_code,
    };
    return target;
  }

  /** The instant of a wall-clock time of the tenant; not in the future. */
  private async instantOf(tx: Queryable, readTime: string | undefined): Promise<Date> {
    if (readTime === undefined) return new Date();
    const match = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.exec(readTime);
    if (!match?.[1] || !isDay(match[1])) throw badRequest("readTime: 应为有效的 yyyy-MM-dd HH:mm:ss");
    const [{ at } = { at: new Date(Number.NaN) }] = await tx.query<{ at: Date }>(
      "select ($1::timestamp at time zone $2) as at",
      [readTime, this.timeZone],
    );
    if (at.getTime() > Date.now() + 60_000) throw badRequest("readTime: 抄读时间不能晚于现在");
    return at;
  }

  private wallTime(at: Date): string {
    return new Date(at).toLocaleString("sv-SE", { timeZone: this.timeZone, hour12: false }).slice(0, 19);
  }
}
