import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Queryable } from "../../db/client.ts";

/** Failures are forgotten once this long has passed since the last one (the contract's 30 minutes). */
export const FAILURE_WINDOW_SECONDS = 30 * 60;
/**
 * A reservation not settled within this long lapses: its attempt's process died (a password check
 * takes a fraction of a second), and it must not hold the account back for ever.
 */
export const RESERVATION_SECONDS = 20;
/** How long an attempt waits for the attempts in flight to settle before it is refused. */
const RESERVE_WAIT_MS = 5_000;
const RESERVE_POLL_MS = 40;

/** The right of one attempt to have its password checked, held until it is settled. */
export interface Reservation {
  tenantId: string;
  account: string;
  address: string;
  id: string;
}

// SQL over row f: the failures still within the window (in seconds, parameter w), the reservations
// not lapsed (parameter r), and a reservation taken now (its id, parameter id).
const liveFailures = (w: string) =>
  `(case when f.last_failure_at > now() - make_interval(secs => ${w}) then f.fail_count else 0 end)`;
const live = (r: string) => `p.value::float8 > extract(epoch from now())::float8 - ${r}::float8`;
const livePending = (r: string) =>
  `coalesce((select jsonb_object_agg(p.key, p.value) from jsonb_each(f.pending) p where ${live(r)}), '{}'::jsonb)`;
const livePendingCount = (r: string) => `(select count(*) from jsonb_each(f.pending) p where ${live(r)})`;
const takenNow = (id: string) => `jsonb_build_object(${id}::text, extract(epoch from now())::float8)`;

/**
 * The lock of an account from an address after too many wrong passwords, kept in the database so
 * that every server process agrees. An attempt reaches the password check only while the failures
 * and the reservations of the attempts in flight stay below the limit; each statement is atomic, and
 * none is held open across the password check.
 */
export class SignInLock {
  constructor(private readonly db: Queryable) {}

  /**
   * Reserves the password check for an attempt, or answers undefined when the account is locked
   * from this address. While only attempts in flight stand in the way, it waits for them to settle:
   * they may well succeed, and a correct password must not be refused for arriving alongside them.
   */
  async reserve(
    tenantId: string,
    account: string,
    address: string,
    limit: number,
  ): Promise<Reservation | undefined> {
    if (limit < 1) return undefined;
    const reservation = { tenantId, account, address, id: randomUUID() };
    const giveUpAt = Date.now() + RESERVE_WAIT_MS;
    for (;;) {
      const granted = await this.db.query(
        `insert into auth_login_failure as f (tenant_id, account, address, fail_count, last_failure_at, pending)
              values ($1, $2, $3, 0, now(), ${takenNow("$4")})
         on conflict (tenant_id, account, address) do update
            set fail_count = ${liveFailures("$5")}, pending = ${livePending("$6")} || ${takenNow("$4")}
          where ${liveFailures("$5")} + ${livePendingCount("$6")} < $7
         returning 1`,
        [...this.key(reservation), FAILURE_WINDOW_SECONDS, RESERVATION_SECONDS, limit],
      );
      if (granted.length > 0) return reservation;
      const [row] = await this.db.query<{ failures: number }>(
        `select ${liveFailures("$4")} as failures from auth_login_failure f
          where tenant_id = $1 and account = $2 and address = $3`,
        [tenantId, account, address, FAILURE_WINDOW_SECONDS],
      );
      if (row && row.failures >= limit) return undefined;
      if (Date.now() >= giveUpAt) return undefined;
      await sleep(RESERVE_POLL_MS + Math.random() * RESERVE_POLL_MS);
    }
  }

  /** A wrong password: its reservation becomes a failure, in one statement. */
  async failed(reservation: Reservation): Promise<void> {
    await this.db.query(
      `insert into auth_login_failure as f (tenant_id, account, address, fail_count, last_failure_at)
            values ($1, $2, $3, 1, now())
       on conflict (tenant_id, account, address) do update
          set fail_count = ${liveFailures("$5")} + 1, last_failure_at = now(), pending = f.pending - $4::text`,
      [...this.key(reservation), FAILURE_WINDOW_SECONDS],
    );
  }

  /**
   * A correct password clears the failures from this address and frees its reservation; the row
   * goes once no other attempt holds a reservation on it.
   */
  async succeeded(reservation: Reservation): Promise<void> {
    await this.db.query(
      `update auth_login_failure f set fail_count = 0, pending = f.pending - $4::text
        where tenant_id = $1 and account = $2 and address = $3`,
      this.key(reservation),
    );
    await this.forgetIfIdle(reservation);
  }

  /** The attempt ended without a verdict (an error): its reservation is freed, nothing is counted. */
  async release(reservation: Reservation): Promise<void> {
    await this.db.query(
      `update auth_login_failure f set pending = f.pending - $4::text
        where tenant_id = $1 and account = $2 and address = $3`,
      this.key(reservation),
    );
    await this.forgetIfIdle(reservation);
  }

  private async forgetIfIdle(reservation: Reservation): Promise<void> {
    // Rechecked on the row as it is when deleted: a reservation taken meanwhile keeps it.
    await this.db.query(
      `delete from auth_login_failure f
        where tenant_id = $1 and account = $2 and address = $3
          and ${liveFailures("$4")} = 0 and ${livePendingCount("$5")} = 0`,
      [
        reservation.tenantId,
        reservation.account,
        reservation.address,
        FAILURE_WINDOW_SECONDS,
        RESERVATION_SECONDS,
      ],
    );
  }

  private key(r: Reservation): [string, string, string, string] {
    return [r.tenantId, r.account, r.address, r.id];
  }
}
