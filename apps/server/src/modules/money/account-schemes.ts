import { balanceLevel } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { lockAccount, METER_TABLE } from "./account.repository.ts";
import { type Actor, thresholdsOf } from "./account-book.ts";
import { settleSupply } from "./arrears.ts";
import { queueMeterWrites } from "./meter-purchase.ts";
import { schemeWrites } from "./scheme-writes.ts";

export interface SchemeChange {
  accountId: string;
  chargingSchemeId?: string | undefined;
  alarmSchemeId?: string | undefined;
}

/** A scheme of the tenant for the account's energy type; 400 naming the field otherwise. */
async function checkScheme(
  tx: Queryable,
  table: "pms_charging_scheme" | "pms_alarm_scheme",
  field: string,
  id: string,
  tenantId: string,
  energyType: number,
) {
  const [row] = await tx.query<{ energy_type: number }>(
    `select energy_type from ${table} where id = $1 and tenant_id = $2 and is_deleted = 0`,
    [id, tenantId],
  );
  if (!row) throw badRequest(`${field}: 方案不存在`);
  if (row.energy_type !== energyType) throw badRequest(`${field}: 方案的能源类型与账户不符`);
}

/**
 * ownerRecharge/update: changes the charging or alarm scheme of an open account (and of its meter,
 * so the meter screens and a later opening agree). Never money: usage priced from now on uses the
 * new charging scheme (the cycle's usage so far stays, so a ladder goes on where it was); the alarm
 * level and the arrears cut or restore follow the new alarm scheme at once. A local-prepaid meter
 * prices its own usage: the schemes are written to it (prices, ladder tables, limits), and the
 * meter charges by them from when each write lands (meterWrites: the queued commands).
 */
export function changeAccountSchemes(
  db: Db,
  tenantId: string,
  change: SchemeChange,
  timeZone: string,
  actor: Actor = { name: "" },
) {
  return db.transaction(async (tx) => {
    const before = await lockAccount(tx, tenantId, change.accountId);
    if (!before) throw notFound("accountId: 账户不存在");
    if (before.status !== 1) throw badRequest("accountId: 账户已销户");
    if (change.chargingSchemeId)
      await checkScheme(
        tx,
        "pms_charging_scheme",
        "chargingSchemeId",
        change.chargingSchemeId,
        tenantId,
        before.energy_type,
      );
    if (change.alarmSchemeId)
      await checkScheme(
        tx,
        "pms_alarm_scheme",
        "alarmSchemeId",
        change.alarmSchemeId,
        tenantId,
        before.energy_type,
      );
    const schemes = [change.chargingSchemeId ?? null, change.alarmSchemeId ?? null];
    await tx.query(
      `update pms_account set charging_scheme_id = coalesce($2, charging_scheme_id),
              alarm_scheme_id = coalesce($3, alarm_scheme_id), update_time = now() where id = $1`,
      [before.id, ...schemes],
    );
    await tx.query(
      `update ${METER_TABLE[before.energy_type]} set charging_scheme_id = coalesce($2, charging_scheme_id),
              alarm_scheme_id = coalesce($3, alarm_scheme_id) where id = $1 and tenant_id = $4`,
      [before.meter_id, ...schemes, tenantId],
    );
    // The thresholds of the new alarm scheme: the level and the supply follow them now, not at the next charge.
    const account = await lockAccount(tx, tenantId, before.id);
    if (!account) throw new Error(`account ${before.id} vanished inside its own transaction`);
    const level = balanceLevel(BigInt(account.balance), thresholdsOf(account));
    await tx.query("update pms_account set alarm_level = $2, arrears_status = $3 where id = $1", [
      account.id,
      level,
      level === 3 ? 1 : 0,
    ]);
    // A local-prepaid meter trips itself by the limits written to it; the server never cuts it.
    if (account.control_status === 1) await settleSupply(tx, account, new Date(), timeZone);
    const [now] = await tx.query<{ charging_scheme_id: string | null; alarm_scheme_id: string | null }>(
      "select charging_scheme_id::text as charging_scheme_id, alarm_scheme_id::text as alarm_scheme_id from pms_account where id = $1",
      [account.id],
    );
    const writes =
      account.control_status === 0
        ? await schemeWrites(tx, now?.charging_scheme_id ?? null, now?.alarm_scheme_id ?? null)
        : [];
    const meterWrites =
      writes.length > 0 ? await queueMeterWrites(tx, account, writes, "account/scheme", actor) : [];
    return {
      accountId: account.id,
      chargingSchemeId: now?.charging_scheme_id ?? "",
      alarmSchemeId: now?.alarm_scheme_id ?? "",
      alarmLevel: level,
      ...(account.control_status === 0 ? { meterWrites: { commandIds: meterWrites } } : {}),
    };
  });
}
