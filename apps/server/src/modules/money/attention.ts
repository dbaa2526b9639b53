import { balanceOutlook, fenToYuan, type Thresholds, toUnits } from "@meterline/billing";
import type { FastifyRequest } from "fastify";
import { page } from "../../contract/envelope.ts";
import { badParam, badRequest } from "../../contract/errors.ts";
import { idList, optionalString, paging } from "../../contract/params.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { meterScope } from "../alarm/record-search.ts";
import { localDay } from "../metering/usage-periods.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { type AttentionFilter, type AttentionRow, attentionQuery, RECENT_DAYS } from "./attention.sql.ts";
import { smallInt } from "./money-reads.ts";

type Params = Record<string, unknown>;

/** The furthest ahead "cut within N days" looks: a year is further than any site plans its reminders. */
const MAX_DAYS = 365;
/** Rows a page counts past its end before it says "more" instead of counting every account. */
const COUNT_BOUND = 10_000;
/** Owners one reminder reaches at most: a site's list, not a whole platform's register. */
export const MAX_REMINDERS = 5_000;
/** The rule code and level a reminder is queued under: one per owner and day (pms_message_queue_once). */
const REMINDER = { ruleCode: "reminder", level: 0 } as const;

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The list's filters from a request: a bad value is a 400 naming its parameter. */
export function attentionFilter(params: Params, tenantId: string | null, timeZone: string, now = new Date()) {
  const daysText = optionalString(params, "cutWithinDays");
  let cutWithinDays: number | undefined;
  if (daysText !== undefined && daysText !== "") {
    if (!/^\d{1,3}$/.test(daysText) || Number(daysText) > MAX_DAYS) throw badParam("cutWithinDays");
    cutWithinDays = Number(daysText);
  }
  const energyType = smallInt(params, "energyType", 2);
  if (energyType === 0) throw badParam("energyType");
  const alarmLevel = smallInt(params, "alarmLevel", 3);
  if (alarmLevel === 0) throw badParam("alarmLevel");
  const keyword = optionalString(params, "keyword")?.trim();
  if (keyword && keyword.length > 64) throw badParam("keyword");
  const today = localDay(now, timeZone);
  return {
    tenantId,
    cutWithinDays,
    alarmLevel,
    energyType,
    keyword: keyword || undefined,
    paceFrom: addDays(today, -RECENT_DAYS),
    paceTo: today,
  } satisfies AttentionFilter;
}

const fen = (yuan: string | null) => (yuan === null ? 0n : toUnits(yuan, 2));

/** One row as the console reads it: money in yuan, the recent pace and how long the balance lasts. */
export function attentionOut(row: AttentionRow) {
  const thresholds: Thresholds = {
    firstAlarm: fen(row.first_alarm),
    secondAlarm: fen(row.second_alarm),
    arrearsLimit: fen(row.arrears_limit),
    tripOnArrears: row.trip_on_arrears === 1,
  };
  const recent = { charged: BigInt(row.charged), days: row.days };
  const outlook = balanceOutlook(BigInt(row.balance), recent, thresholds);
  return {
    // The row is the account: its id keys the console's table and its ticked rows.
    id: row.account_id,
    accountId: row.account_id,
    tenantId: row.tenant_id,
    energyType: row.energy_type,
    meterId: row.meter_id,
    productCode: row.product_code ?? "",
    switchStatus: row.switch_status,
    controlStatus: row.control_status,
    roomId: row.room_id,
    roomName: row.room_name ?? "",
    ownerId: row.owner_id,
    ownerName: row.owner_name ?? "",
    phone: row.phone ?? "",
    balance: fenToYuan(BigInt(row.balance)),
    alarmLevel: row.alarm_level,
    arrearsCut: row.arrears_cut,
    // The recent pace as a day's charge, for reading only; the days below use the exact sums.
    dailyCharge: row.days > 0 && recent.charged > 0n ? fenToYuan(recent.charged / BigInt(row.days)) : null,
    paceDays: row.days,
    daysUntilEmpty: outlook.daysUntilEmpty,
    daysUntilCut: outlook.daysUntilCut,
  };
}

async function query(db: Db, request: FastifyRequest, filter: AttentionFilter) {
  const sql = new SqlParams();
  const statement = attentionQuery(filter, sql, await meterScope(db, request, sql, "a"));
  return { sql, statement };
}

/** One page of the list, its total counted up to a bound (`totalExact` false past it). */
export async function attentionPage(
  db: Db,
  request: FastifyRequest,
  filter: AttentionFilter,
  params: Params,
) {
  const { current, size, offset } = paging(params, 200);
  const listed = await query(db, request, filter);
  const rows = await db.query<AttentionRow>(
    listed.statement.rows(listed.sql.bind(size), listed.sql.bind(offset)),
    listed.sql.values,
  );
  const counted = await query(db, request, filter);
  const [count] = await db.query<{ n: number }>(
    counted.statement.count(counted.sql.bind(COUNT_BOUND + 1)),
    counted.sql.values,
  );
  const n = count?.n ?? 0;
  return page(rows.map(attentionOut), Math.min(n, COUNT_BOUND), current, size, n <= COUNT_BOUND);
}

/** The whole list in order, `limit` rows from `offset` (the Excel export reads it chunk by chunk). */
export async function attentionRows(db: Db, request: FastifyRequest, filter: AttentionFilter) {
  const counted = await query(db, request, filter);
  const [count] = await db.query<{ n: number }>(
    counted.statement.count(counted.sql.bind(1_000_000)),
    counted.sql.values,
  );
  return {
    count: count?.n ?? 0,
    rows: async (limit: number, offset: number) => {
      const listed = await query(db, request, filter);
      const rows = await db.query<AttentionRow>(
        listed.statement.rows(listed.sql.bind(limit), listed.sql.bind(offset)),
        listed.sql.values,
      );
      return rows.map(attentionOut);
    },
  };
}

/** A reminder's outcome per owner: queued, no phone to send to, or already reminded today. */
export interface ReminderOutcome {
  queued: number;
  noPhone: number;
  alreadyToday: number;
  owners: number;
}

/**
 * Queues a balance reminder SMS to the owner of each listed account (the ticked rows, or every row
 * of the search), through the tenant's SMS channel: a message in pms_message_queue per owner, sent
 * and retried by the notice queue and kept there per owner as the log. One reminder per owner and
 * day however often it is pressed; an owner without a mobile number is counted, not queued. The
 * message carries the same values as a balance alarm's (name, room with its building, balance),
 * so the tenant's one template serves both.
 */
export async function remindOwners(
  tx: Queryable,
  rows: ReturnType<typeof attentionOut>[],
  timeZone: string,
  now = new Date(),
): Promise<ReminderOutcome> {
  // One message per owner: about the account that runs out first (rows come in that order).
  const firstOfOwner = new Map<string, ReturnType<typeof attentionOut>>();
  for (const row of rows) if (!firstOfOwner.has(row.ownerId)) firstOfOwner.set(row.ownerId, row);
  if (firstOfOwner.size > MAX_REMINDERS) throw badRequest(`accountIds: 一次最多提醒 ${MAX_REMINDERS} 位业主`);
  const outcome: ReminderOutcome = { queued: 0, noPhone: 0, alreadyToday: 0, owners: firstOfOwner.size };
  for (const row of firstOfOwner.values()) {
    if (!/^1[3-9]\d{9}$/.test(row.phone)) {
      outcome.noPhone++;
      continue;
    }
    const inserted = await tx.query<{ id: string }>(
      `insert into pms_message_queue (id, tenant_id, owner_id, owner_name, phone, rule_code, alarm_level, notify_day,
         template_params, state, job_id, dispatched)
       select $1, o.tenant_id, o.id, o.owner_name, o.phone, $4, $5, ($6::timestamptz at time zone $7)::date,
              json_build_object('name', o.owner_name, 'room', ${roomLabelSql("r")}, 'balance', $8::text)::text,
              1, gen_random_uuid()::text, 0
         from pms_owner o
         left join pms_room r on r.id = $9 and r.tenant_id = o.tenant_id
        where o.id = $3 and o.tenant_id = $2 and o.is_deleted = 0
       on conflict (tenant_id, owner_id, alarm_level, notify_day) do nothing
       returning id::text as id`,
      [
        nextId(),
        row.tenantId,
        row.ownerId,
        REMINDER.ruleCode,
        REMINDER.level,
        now,
        timeZone,
        row.balance,
        row.roomId,
      ],
    );
    if (inserted.length > 0) outcome.queued++;
    else outcome.alreadyToday++;
  }
  return outcome;
}

/** The accounts a reminder names: ids from the ticked rows, or none for "every row of the search". */
export const reminderIds = (params: Params) =>
  params.accountIds === undefined || params.accountIds === "" ? undefined : idList(params, "accountIds");
