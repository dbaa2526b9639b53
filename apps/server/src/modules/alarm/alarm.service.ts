import type { Db, Queryable } from "../../db/client.ts";
import { queueOwnerNotice } from "../notices/owner-notice.repository.ts";
import {
  type DayRecord,
  endRecord,
  type MeterRow,
  type MeterScope,
  meterFacts,
  openRecords,
  raiseDayRecords,
  raiseRecord,
  ruleKey,
  silencedRules,
  tenantRuleRows,
  tenantsWithMeters,
} from "./alarm.repository.ts";
import { effectiveRules, findings, METER_RULE_CODES, notifiesBySms, type RuleCode } from "./alarm-rules.ts";

/** Rules whose records tell the owner by SMS: the balance levels (the finding carries the ALARM_LEVEL). */
const OWNER_NOTIFIED: ReadonlySet<RuleCode> = new Set(["balance_low", "balance_severe", "arrears"]);

export interface PassOutcome {
  raised: number;
  restored: number;
}

/**
 * Evaluates the tenant's rules over its meters (or one, or a batch's) at `now`: a condition that holds raises a
 * record unless one is open or an operator silenced the rule for the meter; an open record whose
 * condition no longer holds (or whose rule was switched off) is restored. Records are only written
 * on a change, so a pass over a quiet fleet reads and writes nothing else. A raised balance record
 * queues the owner's SMS in the same transaction when the account's alarm scheme notifies by SMS
 * (at most one per level and local day in `timeZone`); the job queue sends it later, off this path.
 */
export async function evaluateTenant(
  db: Db,
  tenantId: string,
  now: Date,
  only?: MeterScope,
  timeZone = "Asia/Shanghai",
): Promise<PassOutcome> {
  const rules = effectiveRules(await tenantRuleRows(db, tenantId));
  const meters = await meterFacts(db, tenantId, now, rules.water_flow.threshold, only);
  const open = await openRecords(db, tenantId, only);
  const silenced = await silencedRules(db, tenantId, now, only);
  // Judged in memory first: a pass that changes nothing (most of them) opens no transaction.
  const raises: { meter: MeterRow; code: RuleCode; level: number; content: string }[] = [];
  const ends: string[] = [];
  // A meter with nothing found and no open record has nothing to raise or restore (most meters of
  // most passes): it is passed over without going through every rule's key.
  const openMeters = new Set<string>();
  for (const record of open.values()) openMeters.add(`${record.energy_type}:${record.meter_id}`);
  for (const meter of meters) {
    const list = findings(meter, rules, now);
    if (list.length === 0 && !openMeters.has(`${meter.energyType}:${meter.meterId}`)) continue;
    const found = new Map(list.map((f) => [f.code, f]));
    for (const code of METER_RULE_CODES) {
      const key = ruleKey(meter.energyType, meter.meterId, code);
      const finding = found.get(code);
      const record = open.get(key);
      if (finding && !record && !silenced.has(key))
        raises.push({ meter, code, level: finding.level, content: finding.content });
      else if (!finding && record) ends.push(record.id);
    }
  }
  const outcome: PassOutcome = { raised: 0, restored: 0 };
  if (raises.length === 0 && ends.length === 0) return outcome;
  await db.transaction(async (tx) => {
    for (const { meter, code, level, content } of raises) {
      const raised = await raiseRecord(tx, {
        tenantId,
        energyType: meter.energyType,
        meterId: meter.meterId,
        productCode: meter.productCode,
        ownerId: meter.ownerId,
        code,
        name: rules[code].name,
        level,
        content,
        at: now,
      });
      if (raised) outcome.raised++;
      if (raised && meter.ownerId && OWNER_NOTIFIED.has(code) && notifiesBySms(meter.notifyChannels)) {
        await queueOwnerNotice(tx, {
          tenantId,
          recordId: raised,
          ownerId: meter.ownerId,
          energyType: meter.energyType,
          meterId: meter.meterId,
          ruleCode: code,
          level,
          at: now,
          timeZone,
        });
      }
    }
    for (const id of ends)
      if (await endRecord(tx, tenantId, id, 2, "条件解除, 自动恢复", now)) outcome.restored++;
  });
  return outcome;
}

/** The periodic pass: every tenant with meters, one after another. */
export async function evaluateAll(db: Db, now = new Date(), timeZone?: string): Promise<PassOutcome> {
  const total: PassOutcome = { raised: 0, restored: 0 };
  for (const tenantId of await tenantsWithMeters(db)) {
    const one = await evaluateTenant(db, tenantId, now, undefined, timeZone);
    total.raised += one.raised;
    total.restored += one.restored;
  }
  return total;
}

/**
 * Raises the records of metering nodes' days (the daily line-loss sweep finds them), named as the
 * tenant named each rule; a rule the tenant switched off raises nothing. Answers how many it raised
 * (a day raised before is not raised again).
 */
export async function raiseNodeDayAlarms(
  db: Queryable,
  tenantId: string,
  found: readonly Omit<DayRecord, "name">[],
  at: Date,
): Promise<number> {
  if (found.length === 0) return 0;
  const rules = effectiveRules(await tenantRuleRows(db, tenantId));
  const records = found
    .filter((record) => rules[record.code].enabled)
    .map((record) => ({ ...record, name: rules[record.code].name }));
  return raiseDayRecords(db, tenantId, records, at);
}
