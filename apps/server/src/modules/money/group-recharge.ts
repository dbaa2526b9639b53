import { createHash } from "node:crypto";
import { fenToYuan } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import type { Actor } from "./account-book.ts";
import { type ApprovalGate, takeRecharge, within } from "./recharge.service.ts";

export interface GroupRechargeRequest {
  ownerGroupId: string;
  energyType: 1 | 2;
  /** Fen booked on each account. */
  amount: bigint;
  paymentMethod: number;
  remark: string;
  idempotencyKey?: string | undefined;
}

/** A group holds at most this many accounts to recharge in one transaction. */
const MAX_ACCOUNTS = 2000;

/**
 * One account's idempotency key, derived from the group operation's key: the same group recharge
 * sent twice finds every account's recharge already booked, and different groups never collide.
 */
const accountKey = (key: string, accountId: string) =>
  `grp-${createHash("sha256").update(`${key}:${accountId}`).digest("hex").slice(0, 40)}`;

/**
 * ownerRecharge/rechargeGroup: books the same amount on the open, server-kept account of the energy
 * type of every owner in the group (every such account, when an owner has several meters), in one
 * transaction: an owner without such an account refuses the whole group by name, and a failure on
 * any account books nothing on the others. Each recharge records its paid counter payment.
 */
export function rechargeGroup(
  db: Db,
  tenantId: string,
  request: GroupRechargeRequest,
  actor: Actor,
  timeZone: string,
  approval?: ApprovalGate,
) {
  return db.transaction(async (tx) => {
    const [group] = await tx.query<{ group_name: string }>(
      "select group_name from pms_owner_group where id = $1 and tenant_id = $2 and is_deleted = 0",
      [request.ownerGroupId, tenantId],
    );
    if (!group) throw notFound("ownerGroupId: 分组不存在");
    const owners = await tx.query<{ owner_id: string; owner_name: string; accounts: string[] | null }>(
      `select o.id::text as owner_id, o.owner_name,
              (select array_agg(a.id::text order by a.id) from pms_account a
                where a.owner_id = o.id and a.tenant_id = o.tenant_id and a.status = 1
                  and a.control_status = 1 and a.energy_type = $3) as accounts
         from pms_owner_group_rel g
         join pms_owner o on o.id = g.owner_id and o.is_deleted = 0
        where g.group_id = $1 and g.tenant_id = $2
        order by o.owner_name, o.id`,
      [request.ownerGroupId, tenantId, request.energyType],
    );
    if (owners.length === 0) throw badRequest(`ownerGroupId: 分组 [${group.group_name}] 没有业主`);
    const missing = owners.filter((o) => !o.accounts || o.accounts.length === 0).map((o) => o.owner_name);
    const kind = request.energyType === 2 ? "水表" : "电表";
    if (missing.length > 0)
      throw badRequest(`ownerGroupId: 业主 [${missing.join("、")}] 没有已开户的远程费控${kind}账户`);
    // Accounts in id order: two group recharges over shared owners lock them in the same order.
    const targets = owners
      .flatMap((o) => (o.accounts ?? []).map((accountId) => ({ accountId, ownerName: o.owner_name })))
      .sort((a, b) => (BigInt(a.accountId) < BigInt(b.accountId) ? -1 : 1));
    if (targets.length > MAX_ACCOUNTS) throw badRequest(`ownerGroupId: 一次最多充值 ${MAX_ACCOUNTS} 个账户`);
    const meters = await tx.query<{ id: string; product_code: string | null }>(
      `select a.id::text as id, coalesce(m.product_code, w.product_code) as product_code from pms_account a
         left join pms_meter m on a.energy_type = 1 and m.id = a.meter_id
         left join pms_water w on a.energy_type = 2 and w.id = a.meter_id
        where a.id = any($1::bigint[])`,
      [targets.map((t) => t.accountId)],
    );
    const codes = new Map(meters.map((m) => [m.id, m.product_code ?? ""]));
    const recharges = [];
    let replayed = 0;
    for (const target of targets) {
      const result = await takeRecharge(
        within(tx),
        tenantId,
        {
          accountId: target.accountId,
          energyType: request.energyType,
          rechargeType: 1,
          paymentMethod: request.paymentMethod,
          amount: request.amount,
          remark: request.remark || `分组充值 ${group.group_name}`.slice(0, 255),
          idempotencyKey: request.idempotencyKey
            ? accountKey(request.idempotencyKey, target.accountId)
            : undefined,
        },
        actor,
        timeZone,
        // A group books money in (recharges), which no approval holds; the gate is passed all the
        // same, so whatever money a group operation may one day take out is held like any other.
        approval ? { approval } : {},
      );
      if (result.replayed) replayed += 1;
      recharges.push({
        id: result.id,
        receiptNo: result.receiptNo,
        accountId: target.accountId,
        ownerName: target.ownerName,
        productCode: codes.get(target.accountId) ?? "",
        amount: result.amount,
        balanceAfter: result.balanceAfter,
      });
    }
    return {
      count: recharges.length,
      total: fenToYuan(request.amount * BigInt(recharges.length)),
      replayed: replayed === recharges.length,
      recharges,
    };
  });
}
