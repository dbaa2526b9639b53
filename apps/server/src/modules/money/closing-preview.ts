import { fenToYuan, fromUnits } from "@meterline/billing";
import { formatDateTime } from "../../contract/dates.ts";
import { badRequest } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { openAccountOf } from "./account.repository.ts";
import { latestReading } from "./account-closing.ts";
import { priceReadingIn } from "./usage-pricing.ts";

/** What closing a meter's account would settle, shown to the operator before they confirm. */
export interface ClosingPreview {
  accountId: string;
  meterId: string;
  productCode: string;
  ownerName: string;
  roomName: string;
  energyType: 1 | 2;
  /** 1 the server keeps the balance (supply is cut on closing), 0 the meter does (it is cleared first). */
  controlStatus: 0 | 1;
  /** The register the account was last settled to, and the meter's latest (the final reading). */
  lastReading: string;
  finalReading: string;
  finalReadTime: string;
  /** Usage between the two readings and what it costs (with a month's fixed fee when one falls due). */
  usage: string;
  usageCharge: string;
  balanceBefore: string;
  balance: string;
  refund: string;
  debt: string;
  /** SWITCH_STATUS as the meter last reported it: 0 supplying, 1 cut. */
  switchStatus: number;
}

interface AccountState {
  balance: string;
  register_total: string | null;
  priced_time: Date | null;
  control_status: 0 | 1;
  owner_name: string | null;
  room_name: string | null;
  product_code: string | null;
  switch_status: number | null;
}

/** Thrown to undo the trial settlement: a preview must leave nothing behind. */
class PreviewDone extends Error {}

const readingText = (units: string | null) => (units === null ? "" : fromUnits(BigInt(units), 2));

/**
 * The closing's settlement as closeAccounts would book it: usage since the last settled reading is
 * priced exactly as the closing prices it (the same code, inside a transaction that is then rolled
 * back), so the figures the operator confirms are the figures booked.
 */
export async function closingPreview(
  db: Db,
  tenantId: string,
  energyType: 1 | 2,
  meterId: string,
  timeZone: string,
): Promise<ClosingPreview> {
  let preview: ClosingPreview | undefined;
  await db
    .transaction(async (tx) => {
      const accountId = await openAccountOf(tx, tenantId, energyType, meterId);
      if (!accountId) throw badRequest(`meterId: 表计 ${meterId} 未开户`);
      const state = async () => {
        const [row] = await tx.query<AccountState>(
          `select a.balance::text as balance, a.register_total::text as register_total, a.priced_time, a.control_status,
                  o.owner_name, ${roomLabelSql("r")} as room_name, m.product_code, m.switch_status
             from pms_account a
             left join pms_owner o on o.id = a.owner_id
             left join pms_room r on r.id = a.room_id
             left join lateral (select product_code, switch_status from pms_meter where a.energy_type = 1 and id = a.meter_id
                 union all select product_code, switch_status from pms_water where a.energy_type = 2 and id = a.meter_id) m on true
            where a.id = $1 and a.tenant_id = $2`,
          [accountId, tenantId],
        );
        if (!row) throw new Error(`account ${accountId} vanished inside its own transaction`);
        return row;
      };
      const before = await state();
      const reading = await latestReading(tx, tenantId, energyType, meterId);
      if (reading) await priceReadingIn(tx, reading, timeZone);
      const after = await state();
      const balance = BigInt(after.balance);
      const usage =
        before.register_total !== null && after.register_total !== null
          ? BigInt(after.register_total) - BigInt(before.register_total)
          : 0n;
      preview = {
        accountId,
        meterId,
        productCode: after.product_code ?? "",
        ownerName: after.owner_name ?? "",
        roomName: after.room_name ?? "",
        energyType,
        controlStatus: after.control_status,
        lastReading: readingText(before.register_total),
        finalReading: readingText(after.register_total),
        finalReadTime: after.priced_time ? formatDateTime(after.priced_time, timeZone) : "",
        usage: fromUnits(usage > 0n ? usage : 0n, 2),
        usageCharge: fenToYuan(BigInt(before.balance) - balance),
        balanceBefore: fenToYuan(BigInt(before.balance)),
        balance: fenToYuan(balance),
        refund: fenToYuan(balance > 0n ? balance : 0n),
        debt: fenToYuan(balance < 0n ? -balance : 0n),
        switchStatus: Number(after.switch_status ?? 0),
      };
      throw new PreviewDone();
    })
    .catch((error: unknown) => {
      if (!(error instanceof PreviewDone)) throw error;
    });
  if (!preview) throw new Error("closing preview produced nothing");
  return preview;
}
