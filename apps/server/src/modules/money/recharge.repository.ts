import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { openAccountOf } from "./account.repository.ts";
import type { Actor } from "./account-book.ts";
import type { RechargeRequest } from "./recharge-input.ts";

/** A receipt number a cashier can read out: date and a per-operation suffix, unique in the tenant. */
export const receiptNumber = (id: string) =>
  `R${new Date().toISOString().slice(0, 10).replaceAll("-", "")}${id.slice(-10)}`;

/** The account a recharge is for: accountId, or the open account of meterId; a 400 naming the field. */
export async function resolveAccount(
  tx: Queryable,
  tenantId: string,
  request: RechargeRequest,
): Promise<string> {
  if (request.accountId) return request.accountId;
  if (!request.meterId) throw badRequest("accountId: 请选择账户或表计");
  const accountId = await openAccountOf(tx, tenantId, request.energyType, request.meterId);
  if (!accountId) throw badRequest("meterId: 该表计尚未开户");
  return accountId;
}

/**
 * Inserts the recharge row of an operation, unique per idempotency key: false when the key already
 * names one (the caller answers that one instead), so a double submit is never taken twice.
 * State 1 is booked at once; 0 waits for the meter to confirm a purchase write.
 */
export async function insertRecharge(
  tx: Queryable,
  row: {
    id: string;
    tenantId: string;
    accountId: string;
    request: RechargeRequest;
    state: 0 | 1;
    key: string;
    actor: Actor;
  },
): Promise<boolean> {
  const { id, tenantId, accountId, request, state, key, actor } = row;
  const [inserted] = await tx.query<{ id: string }>(
    `insert into pms_recharge (id, tenant_id, account_id, owner_id, energy_type, meter_id, recharge_type,
                               payment_method, amount, state, receipt_no, idempotency_key, operator, remark, create_user)
     select $1, a.tenant_id, a.id, a.owner_id, a.energy_type, a.meter_id, $4, $5, $6, $7, $8, $9, $10, $11, $12
       from pms_account a where a.id = $2 and a.tenant_id = $3
     on conflict (tenant_id, idempotency_key) do nothing
     returning id`,
    [
      id,
      accountId,
      tenantId,
      request.rechargeType,
      request.paymentMethod,
      request.amount.toString(),
      state,
      receiptNumber(id),
      key,
      actor.name.slice(0, 64),
      request.remark,
      actor.userId || null,
    ],
  );
  return inserted !== undefined;
}
