import { createHash, randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { badRequest, unauthorized } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";

/** Owner sessions last a week; the page signs in again after that. */
const SESSION_SECONDS = 7 * 24 * 3600;

/** The header owner sessions travel in: never Blade-Auth, so neither kind of token passes as the other. */
export const OWNER_HEADER = "h5-auth";

export type IdentityKind = "wechat" | "phone";

export interface OwnerSession {
  tenantId: string;
  kind: IdentityKind;
  /** The openid (WeChat) or the phone number (SMS) the person proved. */
  identity: string;
  appId: string | null;
  /** The owner the identity's live binding names; null before the first binding. */
  ownerId: string | null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function openSession(
  db: Queryable,
  tenantId: string,
  kind: IdentityKind,
  identity: string,
  appId: string | null,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.query(
    `insert into pms_h5_session (token_hash, tenant_id, kind, identity, app_id, expires_at)
     values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [sha256(token), tenantId, kind, identity, appId, SESSION_SECONDS],
  );
  return token;
}

export async function closeSession(db: Queryable, token: string): Promise<void> {
  await db.query("delete from pms_h5_session where token_hash = $1", [sha256(token)]);
}

export function ownerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[OWNER_HEADER];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value ? value.replace(/^bearer\s+/i, "") : undefined;
}

/**
 * The session of a request with the owner its identity is bound to, read afresh each time so an
 * unbinding (from the page or the console's wxbind screen) or a removed owner takes effect at once.
 */
export async function sessionOf(db: Db, request: FastifyRequest): Promise<OwnerSession & { token: string }> {
  const token = ownerTokenOf(request);
  if (!token) throw unauthorized("请先登录");
  const [row] = await db.query<{
    tenant_id: string;
    kind: IdentityKind;
    identity: string;
    app_id: string | null;
    owner_id: string | null;
  }>(
    `select s.tenant_id, s.kind, s.identity, s.app_id, o.id::text as owner_id
       from pms_h5_session s
       left join pms_wx_bind b
         on b.tenant_id = s.tenant_id and b.is_deleted = 0
        and ((s.kind = 'wechat' and b.open_id = s.identity) or (s.kind = 'phone' and b.phone = s.identity))
       left join pms_owner o on o.id = b.owner_id and o.tenant_id = s.tenant_id and o.is_deleted = 0
      where s.token_hash = $1 and s.expires_at > now()
      limit 1`,
    [sha256(token)],
  );
  if (!row) throw unauthorized("登录已过期,请重新登录");
  return {
    token,
    tenantId: row.tenant_id,
    kind: row.kind,
    identity: row.identity,
    appId: row.app_id,
    ownerId: row.owner_id,
  };
}

/** The session's owner, or a refusal that tells the page to show the binding form. */
export function boundOwner(session: OwnerSession): string {
  if (!session.ownerId) throw badRequest("owner: 尚未绑定房间");
  return session.ownerId;
}

/** Owners of a room (by its name or code) whose record carries the phone: who may bind to it. */
export async function ownersOfRoom(db: Queryable, tenantId: string, room: string, phone: string) {
  const rows = await db.query<{ id: string }>(
    `select distinct o.id::text as id
       from pms_owner o
       join pms_owner_room r on r.owner_id = o.id and r.tenant_id = o.tenant_id and r.is_deleted = 0
       join pms_room m on m.id = r.room_id and m.tenant_id = o.tenant_id and m.is_deleted = 0
      where o.tenant_id = $1 and o.is_deleted = 0 and o.phone = $2 and (m.room_name = $3 or m.room_code = $3)`,
    [tenantId, phone, room],
  );
  return rows.map((r) => r.id);
}

/** Links the session's identity to an owner with a pms_wx_bind row (the console's wxbind list). */
export async function bindIdentity(db: Db, session: OwnerSession, ownerId: string): Promise<void> {
  if (session.ownerId) throw badRequest("owner: 已绑定,请先解除绑定");
  const column = session.kind === "wechat" ? "open_id" : "phone";
  try {
    await db.query(
      `insert into pms_wx_bind (id, tenant_id, owner_id, ${column}, app_id, bind_time, create_time, update_time,
                                status, is_deleted)
       values ($1, $2, $3, $4, $5, now(), now(), now(), 1, 0)`,
      [nextId(), session.tenantId, ownerId, session.identity, session.appId],
    );
  } catch (error) {
    // The unique index on the identity: a second tab bound it a moment ago.
    if ((error as { code?: string }).code === "23505") throw badRequest("owner: 已绑定,请先解除绑定");
    throw error;
  }
}

/** Ends the identity's binding (soft delete, as the console's remove does). */
export async function unbindIdentity(db: Db, session: OwnerSession): Promise<number> {
  const column = session.kind === "wechat" ? "open_id" : "phone";
  const rows = await db.query(
    `update pms_wx_bind set is_deleted = 1, update_time = now()
      where tenant_id = $1 and ${column} = $2 and is_deleted = 0 returning id`,
    [session.tenantId, session.identity],
  );
  return rows.length;
}
