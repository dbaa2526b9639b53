import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../../db/client.ts";

/** Seconds a ticket may wait to be redeemed: the console opens its stream right after asking. */
export const TICKET_TTL_SECONDS = 30;

export interface TicketHolder {
  tenantId: string;
  userId: string;
  jti: string;
}

const hashOf = (ticket: string) => createHash("sha256").update(ticket, "utf8").digest("hex");

/**
 * Single-use tickets that open a push stream (live_ticket, migration 044): random, kept only as
 * their hash, redeemed by deleting them, so a ticket seen twice (a replay, a second tab copying the
 * address) opens at most one stream.
 */
export class LiveTickets {
  constructor(private readonly db: Queryable) {}

  async issue(holder: TicketHolder): Promise<string> {
    const ticket = randomBytes(32).toString("base64url");
    // Expired tickets nobody redeemed go with the next issue: the table stays as small as its traffic.
    await this.db.query("delete from live_ticket where expires_at < now()");
    await this.db.query(
      `insert into live_ticket (ticket_hash, tenant_id, user_id, jti, expires_at)
       values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [hashOf(ticket), holder.tenantId, holder.userId, holder.jti, TICKET_TTL_SECONDS],
    );
    return ticket;
  }

  /** The holder of a valid ticket, which is used up by this; undefined for any other string. */
  async redeem(ticket: string): Promise<TicketHolder | undefined> {
    const [row] = await this.db.query<{ tenant_id: string; user_id: string; jti: string; valid: boolean }>(
      `delete from live_ticket where ticket_hash = $1
       returning tenant_id, user_id::text as user_id, jti, expires_at > now() as valid`,
      [hashOf(ticket)],
    );
    if (!row?.valid) return undefined;
    return { tenantId: row.tenant_id, userId: row.user_id, jti: row.jti };
  }
}
