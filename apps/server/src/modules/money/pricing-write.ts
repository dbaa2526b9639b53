import { withArrayLiteralsInSlices } from "../../db/array-literal.ts";
import type { Queryable } from "../../db/client.ts";
import { type Column, columnParams, columnRows } from "../../db/column-params.ts";
import { prepared } from "../../db/prepared.ts";
import type { VersionedAccount } from "./priced-accounts.ts";
import {
  ACCOUNT,
  ACCOUNT_KEY,
  ACCOUNT_SET,
  type BatchEntry,
  ENTRY_OF_ACCOUNT,
  PART,
  partRows,
} from "./pricing-columns.ts";
import { PRICING } from "./usage-pricing.ts";

/**
 * The schemes the accounts were priced by, with the versions read: one row per scheme (kind 1
 * charging, 2 alarm), so a wave of a thousand accounts on three schemes checks three rows.
 */
function schemeColumns(accounts: readonly VersionedAccount[]) {
  const schemes = new Map<string, [number, string, string, string | null]>();
  let before: VersionedAccount | undefined;
  for (const a of accounts) {
    // A wave's accounts mostly share their schemes: one like the account before adds nothing.
    const same =
      before !== undefined &&
      a.tenant_id === before.tenant_id &&
      a.charging_scheme_id === before.charging_scheme_id &&
      a.charging_version === before.charging_version &&
      a.alarm_scheme_id === before.alarm_scheme_id &&
      a.alarm_version === before.alarm_version;
    before = a;
    if (same) continue;
    if (a.charging_scheme_id !== null)
      schemes.set(`1:${a.tenant_id}:${a.charging_scheme_id}`, [
        1,
        a.tenant_id,
        a.charging_scheme_id,
        a.charging_version,
      ]);
    if (a.alarm_scheme_id !== null)
      schemes.set(`2:${a.tenant_id}:${a.alarm_scheme_id}`, [
        2,
        a.tenant_id,
        a.alarm_scheme_id,
        a.alarm_version,
      ]);
  }
  const rows = [...schemes.values()];
  return [0, 1, 2, 3].map((i) => rows.map((row) => row[i]));
}

/** An account to write, with what its entries move it by (its owner moves by as much). */
interface AccountWrite {
  account: VersionedAccount;
  moved: string;
}

const ofAccount = (columns: readonly Column<VersionedAccount>[]): Column<AccountWrite>[] =>
  columns.map((column) => ({ ...column, of: (row: AccountWrite) => column.of(row.account) }));

/** The accounts' rows: id, tenant, the version read, ACCOUNT's columns, the move. */
const WRITES: readonly Column<AccountWrite>[] = [
  ...ofAccount(ACCOUNT_KEY),
  { name: "version", type: "text", of: (row) => row.account.row_version },
  ...ofAccount(ACCOUNT),
  { name: "moved", type: "bigint", of: (row) => row.moved },
];
const WRITE_ROWS = columnRows(WRITES, 1, "u");
const ENTRY_ROWS = columnRows(ENTRY_OF_ACCOUNT, WRITE_ROWS.next, "e");
/** The writer's name, then the parts' rows, then the schemes' four arrays. */
const WRITER = ENTRY_ROWS.next;
const PART_ROWS = columnRows(PART, WRITER + 1, "p");
const SCHEMES = PART_ROWS.next;

/**
 * Writes a priced batch in one statement, account by account only where nothing it was priced from
 * changed since it was read: the account's row still the version read (no recharge, correction,
 * closing or other process wrote it) and every scheme of the batch still the version read (else no
 * account is written). An account written gets its entries, their parts and its owner's move in the
 * same statement; an account left out gets nothing, and its readings are priced again under lock
 * (batch-pricing.ts). One statement is one transaction: there is no lock held across a round trip
 * and no begin or commit to send.
 *
 * The accounts are found by their primary key probed with the batch's ids (`= any`): joined to the
 * batch's rows alone, the planner hashed the whole account table for every batch. Each owner moves
 * by what its written accounts moved (each account's move is sent beside it and answered by the
 * accounts' update, so the entries are not gone through again), probed one by one (an `= any` there
 * made the kept plan probe the whole list for each owner: quadratic).
 *
 * The accounts are taken in id order (their key probed in order), as the locked path takes them,
 * and owners after accounts, as a recharge takes them, so writers queue instead of
 * deadlocking; a deadlock all the same fails the statement whole, and the batch is priced under
 * lock. Answers each written account's new version by its id.
 *
 * An entry's tenant and owner are its account's, taken from the row the statement wrote (not sent
 * with every entry), and the columns a wave mostly shares go once (db/column-params.ts): a wave's
 * parameters are a third smaller.
 */
export async function writeUnchanged(
  q: Queryable,
  accounts: readonly VersionedAccount[],
  entries: readonly BatchEntry[],
): Promise<Map<string, string>> {
  if (accounts.length === 0) return new Map();
  // Ids are decimal text without leading zeros: the shorter is the smaller, else the text decides.
  const sorted = [...accounts].sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
  // What each account's entries move, in fen: its owner moves by as much, once it is written.
  const moves = new Map<string, bigint>();
  for (const e of entries) moves.set(e.account.id, (moves.get(e.account.id) ?? 0n) + e.amount);
  // Written a few columns at a time (the store of the next wave runs beside this).
  const params = await withArrayLiteralsInSlices([
    ...columnParams(
      WRITES,
      sorted.map((account) => ({ account, moved: (moves.get(account.id) ?? 0n).toString() })),
    ),
    ...columnParams(ENTRY_OF_ACCOUNT, entries),
    PRICING.name,
    ...columnParams(PART, partRows(entries)),
    ...schemeColumns(sorted),
  ]);
  const [row] = await q.query<{ version: string | null; left_out: string[] }>(
    prepared(`with fresh as materialized (
       select coalesce(bool_and(case v.kind
                when 1 then (select c.xmin::text from pms_charging_scheme c
                              where c.tenant_id = v.tenant_id and c.id = v.id and c.is_deleted = 0)
                else (select s.xmin::text from pms_alarm_scheme s
                       where s.tenant_id = v.tenant_id and s.id = v.id and s.is_deleted = 0)
              end is not distinct from v.version), true) as ok
         from unnest($${SCHEMES}::int[], $${SCHEMES + 1}::varchar[], $${SCHEMES + 2}::bigint[], $${SCHEMES + 3}::text[])
           as v(kind, tenant_id, id, version)),
     stamp as materialized (select clock_timestamp() as at),
     moved as (
       update pms_account a set ${ACCOUNT_SET}
         from ${WRITE_ROWS.sql}
        where a.id = any($1::bigint[]) and a.id = u.id and a.tenant_id = u.tenant_id and a.xmin::text = u.version
          and (select ok from fresh)
       returning a.id, a.xmin::text as version, a.owner_id, a.tenant_id, u.moved),
     entry as (
       insert into pms_ledger (${ENTRY_ROWS.names}, tenant_id, owner_id, creator, create_time)
       select e.*, m.tenant_id, m.owner_id, $${WRITER}::varchar, stamp.at
         from ${ENTRY_ROWS.sql}
         join moved m on m.id = e.account_id
        cross join stamp),
     part as (
       insert into pms_ledger_part (${PART_ROWS.names}, create_time)
       select p.*, stamp.at
         from ${PART_ROWS.sql}
        cross join stamp
        where p.account_id in (select id from moved)),
     owner as (
       update pms_owner o set balance = o.balance + m.amount / 100.0
         from (select owner_id, tenant_id, sum(moved) as amount from moved where moved <> 0
                group by owner_id, tenant_id
                order by owner_id) m
        where o.id = m.owner_id and o.tenant_id = m.tenant_id)
     select (select version from moved limit 1) as version,
            array(select id from unnest($1::bigint[]) as w(id) except select id from moved)::text[] as left_out`),
    params,
  );
  // Every account written has the one version of this statement's transaction: one row answers
  // for all, naming the few left out.
  const left = new Set(row!.left_out);
  return new Map(sorted.filter((a) => !left.has(a.id)).map((a) => [a.id, row!.version!]));
}
