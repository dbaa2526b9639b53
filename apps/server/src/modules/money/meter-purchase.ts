import { fenToYuan } from "@meterline/billing";
import type { CommandEvidence } from "@meterline/gateway";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { LockedAccount } from "./account.repository.ts";
import type { Actor } from "./account-book.ts";

/**
 * What a purchase command carries for the gateway (amount in yuan and the purchase count the meter
 * must reach) and for its settlement (the account, and the recharge it books, or the opening deposit).
 */
export interface PurchasePayload {
  amount: string;
  purchaseCount: number;
  accountId: string;
  rechargeId?: string;
  deposit?: boolean;
}

/** The states of a command whose outcome is still open: the meter may or may not hold it yet. */
const OPEN_STATES = ["queued", "sent", "timeout"];

/** The purchase count the meter last showed or confirmed; undefined when never read. */
export async function knownPurchaseCount(tx: Queryable, meterId: string): Promise<number | undefined> {
  const [row] = await tx.query<{ purchase_count: number }>(
    "select purchase_count from pms_meter_purchase_count where meter_id = $1",
    [meterId],
  );
  return row?.purchase_count;
}

/** Remembers a count the meter showed at `at`; news older than what is known changes nothing. */
export async function rememberPurchaseCount(
  tx: Queryable,
  tenantId: string,
  meterId: string,
  purchaseCount: number,
  at: Date,
): Promise<void> {
  await tx.query(
    `insert into pms_meter_purchase_count (meter_id, tenant_id, purchase_count, known_time)
     values ($1, $2, $3, $4)
     on conflict (meter_id) do update set purchase_count = excluded.purchase_count, known_time = excluded.known_time
       where pms_meter_purchase_count.known_time < excluded.known_time`,
    [meterId, tenantId, purchaseCount, at],
  );
}

/**
 * The id of the meter's purchase or clearing write still in flight (queued, sent, or timed out and
 * unconfirmed): both move the purchase count, and while one is open the meter's money is unknown.
 */
export async function openPurchase(tx: Queryable, tenantId: string, meterId: string) {
  const [row] = await tx.query<{ id: string }>(
    `select id::text as id from pms_meter_command
      where tenant_id = $1 and energy_type = 1 and meter_id = $2 and command_type in ('recharge', 'clearing')
        and state = any($3::text[]) limit 1`,
    [tenantId, meterId, OPEN_STATES],
  );
  return row?.id;
}

export interface QueuedWrite {
  commandType: "recharge" | "clearing" | "write";
  payload: Record<string, unknown>;
}

/** Queues writes to one electric meter in order; 400 when no collector reaches it. Returns the ids. */
export async function queueMeterWrites(
  tx: Queryable,
  account: Pick<LockedAccount, "tenant_id" | "meter_id">,
  writes: QueuedWrite[],
  source: string,
  actor: Actor,
): Promise<string[]> {
  const [meter] = await tx.query<{ product_code: string; collector_id: string | null }>(
    "select product_code, collector_id::text as collector_id from pms_meter where id = $1 and tenant_id = $2",
    [account.meter_id, account.tenant_id],
  );
  if (!meter?.collector_id) throw badRequest("meterId: 表计未绑定采集器,无法写表");
  const batchId = nextId();
  const ids: string[] = [];
  for (const write of writes) {
    const id = nextId();
    await tx.query(
      `insert into pms_meter_command
         (id, tenant_id, energy_type, meter_id, product_code, command_type, payload, batch_id, source, create_user)
       values ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        account.tenant_id,
        account.meter_id,
        meter.product_code,
        write.commandType,
        JSON.stringify(write.payload),
        batchId,
        source,
        actor.userId || null,
      ],
    );
    ids.push(id);
  }
  return ids;
}

/**
 * The purchase write of `amount` to a local-prepaid meter, with the count the meter must accept
 * (its count + 1). One purchase at a time per meter: while one is unconfirmed the meter's count is
 * unknown, and a second write would either be refused or, worse, be decided on a guess.
 */
export async function purchaseWrite(
  tx: Queryable,
  account: LockedAccount,
  amount: bigint,
  settle: { rechargeId?: string; deposit?: boolean },
  field: string,
): Promise<QueuedWrite> {
  if (await openPurchase(tx, account.tenant_id, account.meter_id))
    throw badRequest(`${field}: 该表上一笔写表充值尚未确认,请等待表计回复后再充值`);
  const count = await knownPurchaseCount(tx, account.meter_id);
  if (count === undefined) throw badRequest(`${field}: 尚未抄到该表的购电次数,请等待抄表后再充值`);
  const payload: PurchasePayload = {
    amount: fenToYuan(amount),
    purchaseCount: count + 1,
    accountId: account.id,
    ...settle,
  };
  return { commandType: "recharge", payload: { ...payload } };
}

/** The purchase count a read-back showed, when the gateway read one. */
export function countReadBack(evidence: CommandEvidence): number | undefined {
  const readBack = evidence.readBack;
  if (readBack?.item !== "purchase-count" || !/^\d+$/.test(readBack.value ?? "")) return undefined;
  return Number(readBack.value);
}
