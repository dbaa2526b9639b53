import { fenToYuan } from "@meterline/billing";
import type { Queryable } from "../../db/client.ts";

export interface LedgerMismatch {
  /** The account's id, or the owner's for an owner mismatch. */
  id: string;
  tenantId: string;
  problem: "balance" | "chain" | "owner";
  expected: string;
  found: string;
}

/**
 * Proves every balance is the sum of its ledger (design.md §5): each account's balance against
 * the sum of its entries, each entry's balance-after against the one before it plus its amount,
 * and each owner's balance against their accounts. Answers what differs; empty means all agree.
 */
export async function checkLedger(db: Queryable, tenantId?: string): Promise<LedgerMismatch[]> {
  const scope = tenantId ? "and a.tenant_id = $1" : "";
  const params = tenantId ? [tenantId] : [];
  type Row = { id: string; tenant_id: string; expected: string; found: string };
  const balances = await db.query<Row>(
    `select a.id::text as id, a.tenant_id, coalesce(sum(l.amount), 0)::text as expected, a.balance::text as found
       from pms_account a left join pms_ledger l on l.account_id = a.id
      where true ${scope}
      group by a.id having a.balance <> coalesce(sum(l.amount), 0)`,
    params,
  );
  const chain = await db.query<Row>(
    `select account_id::text as id, tenant_id, expected::text as expected, found::text as found from (
       select l.account_id, l.tenant_id, l.balance_after as found,
              coalesce(lag(l.balance_after) over (partition by l.account_id order by l.create_time, l.id), 0) + l.amount as expected
         from pms_ledger l join pms_account a on a.id = l.account_id where true ${scope}) steps
      where expected <> found`,
    params,
  );
  const owners = await db.query<Row>(
    `select o.id::text as id, o.tenant_id, coalesce(sum(a.balance), 0)::text as expected, (o.balance * 100)::bigint::text as found
       from pms_owner o join pms_account a on a.owner_id = o.id
      where true ${scope}
      group by o.id having o.balance * 100 <> coalesce(sum(a.balance), 0)`,
    params,
  );
  const named = (problem: LedgerMismatch["problem"]) => (r: Row) => ({
    id: r.id,
    tenantId: r.tenant_id,
    problem,
    expected: fenToYuan(BigInt(r.expected)),
    found: fenToYuan(BigInt(r.found)),
  });
  return [...balances.map(named("balance")), ...chain.map(named("chain")), ...owners.map(named("owner"))];
}
