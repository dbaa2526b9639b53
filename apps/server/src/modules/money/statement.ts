import { fenToYuan } from "@meterline/billing";
import { formatDateTime } from "../../contract/dates.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId } from "../../contract/params.ts";
import type { Queryable } from "../../db/client.ts";
import { dayParam } from "../metering/usage-periods.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { meterCodeJoin } from "./account.repository.ts";

const yuan = (fen: string) => fenToYuan(BigInt(fen));
const kwh = (units: string) => fenToYuan(BigInt(units)); // usage has 2 decimals like money

/**
 * An account's statement over closed days (from the daily close): the opening balance, each day's
 * usage, charges, money in and out and usage corrections, each correction and recharge of the period, and the closing balance.
 */
export async function accountStatement(
  db: Queryable,
  tenantId: string,
  accountId: string,
  from: string,
  to: string,
  timeZone: string,
) {
  const [account] = await db.query<{
    id: string;
    energy_type: number;
    product_code: string | null;
    owner_name: string | null;
    room_name: string | null;
    balance: string;
  }>(
    `select a.id::text as id, a.energy_type, m.product_code, o.owner_name, ${roomLabelSql("r")} as room_name, a.balance::text as balance
       from pms_account a
       left join pms_owner o on o.id = a.owner_id
       left join pms_room r on r.id = a.room_id
       ${meterCodeJoin("a", "m")}
      where a.id = $1 and a.tenant_id = $2`,
    [accountId, tenantId],
  );
  if (!account) return undefined;
  const days = await db.query<Record<string, string>>(
    `select to_char(day, 'YYYY-MM-DD') as day, opening_balance::text as opening_balance, usage::text as usage,
            usage_charge::text as usage_charge, fee::text as fee, credit::text as credit, debit::text as debit,
            correction::text as correction, closing_balance::text as closing_balance
       from pms_account_day where tenant_id = $1 and account_id = $2 and day between $3::date and $4::date
      order by day`,
    [tenantId, accountId, from, to],
  );
  const recharges = await db.query<{
    id: string;
    recharge_type: number;
    payment_method: number;
    amount: string;
    receipt_no: string;
    operator: string;
    create_time: Date;
  }>(
    `select id::text as id, recharge_type, payment_method, amount::text as amount, receipt_no, operator, create_time
       from pms_recharge
      where tenant_id = $1 and account_id = $2 and state = 1
        and create_time >= ($3::date::timestamp at time zone $5) and create_time < (($4::date + 1)::timestamp at time zone $5)
      order by create_time`,
    [tenantId, accountId, from, to, timeZone],
  );
  // Each usage correction of the period on its own line: what a voided or hand-entered reading
  // changed in the usage charged, with who made it and why.
  const corrections = await db.query<{
    id: string;
    amount: string;
    usage: string | null;
    usage_day: string | null;
    reading_id: string | null;
    cause: string;
    creator: string;
    create_time: Date;
  }>(
    `select id::text as id, amount::text as amount, usage::text as usage, to_char(usage_day, 'YYYY-MM-DD') as usage_day,
            reading_id::text as reading_id, cause, creator, create_time
       from pms_ledger
      where tenant_id = $1 and account_id = $2 and entry_type = 9
        and create_time >= ($3::date::timestamp at time zone $5) and create_time < (($4::date + 1)::timestamp at time zone $5)
      order by create_time, id`,
    [tenantId, accountId, from, to, timeZone],
  );
  const sum = (field: string) => days.reduce((total, d) => total + BigInt(d[field] ?? "0"), 0n).toString();
  return {
    account: {
      id: account.id,
      energyType: account.energy_type,
      productCode: account.product_code ?? "",
      ownerName: account.owner_name ?? "",
      roomName: account.room_name ?? "",
      balance: yuan(account.balance),
    },
    from,
    to,
    openingBalance: days[0] ? yuan(days[0].opening_balance!) : null,
    closingBalance: days.at(-1) ? yuan(days.at(-1)!.closing_balance!) : null,
    totals: {
      usage: kwh(sum("usage")),
      usageCharge: yuan(sum("usage_charge")),
      fee: yuan(sum("fee")),
      credit: yuan(sum("credit")),
      debit: yuan(sum("debit")),
      correction: yuan(sum("correction")),
    },
    days: days.map((d) => ({
      day: d.day,
      openingBalance: yuan(d.opening_balance!),
      usage: kwh(d.usage!),
      usageCharge: yuan(d.usage_charge!),
      fee: yuan(d.fee!),
      credit: yuan(d.credit!),
      debit: yuan(d.debit!),
      correction: yuan(d.correction!),
      closingBalance: yuan(d.closing_balance!),
    })),
    corrections: corrections.map((c) => ({
      id: c.id,
      amount: yuan(c.amount),
      usage: c.usage === null ? "" : kwh(c.usage),
      usageDay: c.usage_day ?? "",
      readingId: c.reading_id ?? "",
      cause: c.cause,
      operator: c.creator,
      createTime: formatDateTime(c.create_time, timeZone),
    })),
    recharges: recharges.map((r) => ({
      id: r.id,
      rechargeType: r.recharge_type,
      paymentMethod: r.payment_method,
      amount: yuan(r.amount),
      receiptNo: r.receipt_no,
      operator: r.operator,
      createTime: formatDateTime(r.create_time, timeZone),
    })),
  };
}

/** The account and closed-day period a statement (or its sheet) asks for: at most 366 days, 400s naming the field. */
export function statementRequest(params: Record<string, unknown>): {
  accountId: string;
  from: string;
  to: string;
} {
  const accountId = optionalId(params, "accountId");
  if (!accountId) throw badRequest("accountId: 请选择账户");
  const from = dayParam(params, "startDay");
  const to = dayParam(params, "endDay");
  if (!from || !to) throw badRequest(`${from ? "endDay" : "startDay"}: 请选择日期 (yyyy-MM-dd)`);
  if (from > to) throw badRequest("startDay: 开始日期不能晚于结束日期");
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 > 366) throw badRequest("endDay: 一次最多 366 天");
  return { accountId, from, to };
}
