import type { Queryable } from "../../db/client.ts";
import { FAILURE_WINDOW_SECONDS } from "./sign-in-lock.ts";

/**
 * Failures from one address (whatever the accounts) and against one account (whatever the
 * addresses) before each further failure makes that address or account wait: first
 * FIRST_WAIT_SECONDS, doubling with each failure up to MAX_WAIT_SECONDS.
 */
export const ADDRESS_ALLOWANCE = 20;
export const ACCOUNT_ALLOWANCE = 10;
const FIRST_WAIT_SECONDS = 30;
const MAX_WAIT_SECONDS = 15 * 60;

export type ThrottleScope = "address" | "account";

/** The subject of an account's counters: accounts are unique per tenant. */
export const accountSubject = (tenantId: string, account: string) => `${tenantId}:${account}`;

/**
 * The sign-in counters, kept in the database so that every server process agrees. Each statement is
 * atomic: concurrent attempts never read a count another attempt is about to change.
 */
export class SignInThrottle {
  constructor(private readonly db: Queryable) {}

  /** A successful sign-in lifts its account's wait; the address keeps its own. */
  async succeeded(accountKey: string): Promise<void> {
    await this.db.query("delete from auth_sign_in_throttle where scope = 'account' and subject = $1", [
      accountKey,
    ]);
  }

  /** The scopes among the address and the account that must wait now. */
  async waiting(address: string, accountKey: string): Promise<Set<ThrottleScope>> {
    const rows = await this.db.query<{ scope: ThrottleScope }>(
      `select scope from auth_sign_in_throttle
        where ((scope = 'address' and subject = $1) or (scope = 'account' and subject = $2))
          and blocked_until > now()`,
      [address, accountKey],
    );
    return new Set(rows.map((r) => r.scope));
  }

  /** Counts a wrong password against a scope; past its allowance the scope waits, doubling each time. */
  async failed(scope: ThrottleScope, subject: string): Promise<void> {
    const allowance = scope === "address" ? ADDRESS_ALLOWANCE : ACCOUNT_ALLOWANCE;
    const count = `case when t.last_failure_at > now() - make_interval(secs => $3) then t.fail_count + 1 else 1 end`;
    const wait = (n: string) =>
      `case when ${n} >= $4 then now() + make_interval(secs => least($6::float8, $5::float8 * power(2::float8, least(${n} - $4, 20))))
            else null end`;
    await this.db.query(
      `insert into auth_sign_in_throttle as t (scope, subject, fail_count, last_failure_at, blocked_until)
            values ($1, $2, 1, now(), ${wait("1")})
       on conflict (scope, subject) do update
          set fail_count = ${count}, last_failure_at = now(), blocked_until = ${wait(count)}`,
      [scope, subject, FAILURE_WINDOW_SECONDS, allowance, FIRST_WAIT_SECONDS, MAX_WAIT_SECONDS],
    );
  }

  /**
   * An administrator's unlock: the account may try again from everywhere at once (failures and
   * reservations alike are dropped; an attempt still in flight counts again only if it fails).
   */
  async unlock(tenantId: string, account: string): Promise<void> {
    await this.db.query("delete from auth_login_failure where tenant_id = $1 and account = $2", [
      tenantId,
      account,
    ]);
    await this.db.query("delete from auth_sign_in_throttle where scope = 'account' and subject = $1", [
      accountSubject(tenantId, account),
    ]);
  }
}
