import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Queryable } from "../db/client.ts";
import { isAdministrator } from "../modules/auth/current-user.ts";

/** Where stored files are served; a link is this base plus the file's unguessable name. */
export const FILE_LINK_BASE = "/api/blade-resource/oss/file";
const DAY_SECONDS = 86_400;
/** The signature a link carries; the older form without the tenant is stripped the same way. */
const SIGNATURE = String.raw`\?(?:tenant=\w{1,12}&)?expires=\d+&signature=[\w-]+`;
/** A file link in a JSON answer, with the signature an earlier answer may have given it. */
const LINK_IN_JSON = new RegExp(
  String.raw`\/api\/blade-resource\/oss\/file\/([\w./-]+?)(?:${SIGNATURE})?(?=")`,
  "g",
);
const SIGNED_SUFFIX = new RegExp(`${SIGNATURE}$`);
const TENANT_ID = /^\w{1,12}$/;

/**
 * Signed, expiring links to stored files: an `<img>` tag (avatars, image fields, the login
 * background) and a download link cannot send the token, so each link the server hands out
 * carries the tenant whose file it is, `expires` (unix seconds) and an HMAC of the three, keyed by
 * a secret derived from the server's signing key. The file route reads that tenant's file of that
 * name only: a link cannot be turned to another tenant's file. Links expire at the end of the next
 * day, so one link stays the same all day long and browsers can cache the image.
 */
export class FileLinks {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = createHmac("sha256", serverSecret).update("meterline file links").digest();
  }

  private signature(tenantId: string, name: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${tenantId}\n${name}\n${expires}`).digest("base64url");
  }

  /** The signed link of a tenant's stored file, valid until the end of tomorrow (UTC). */
  sign(tenantId: string, name: string, nowMs = Date.now()): string {
    const expires = (Math.floor(nowMs / 1000 / DAY_SECONDS) + 2) * DAY_SECONDS;
    const signature = this.signature(tenantId, name, expires);
    return `${FILE_LINK_BASE}/${name}?tenant=${tenantId}&expires=${expires}&signature=${signature}`;
  }

  /** True when the signature is this server's for the tenant and name, and has not expired. */
  verify(tenantId: unknown, name: string, expires: unknown, signature: unknown, nowMs = Date.now()): boolean {
    if (typeof tenantId !== "string" || !TENANT_ID.test(tenantId)) return false;
    if (typeof expires !== "string" || typeof signature !== "string" || !/^\d{1,12}$/.test(expires))
      return false;
    if (Number(expires) * 1000 <= nowMs) return false;
    const expected = Buffer.from(this.signature(tenantId, name, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** A reader who may see every tenant's files: the platform administrator, or a trusted answer. */
export const ANY_TENANT = Symbol("any tenant");
type Reader = string | typeof ANY_TENANT;

/** The reader of a public answer (a sign-in, the login page), set by its route. */
const publicReaders = new WeakMap<FastifyRequest, Reader>();

/**
 * Says who reads the answer of a public route (no signed-in caller): its file links are signed as
 * that tenant's own calls' are. ANY_TENANT only for links that the platform administrator alone
 * writes (a tenant's login background, uploaded in the platform's own tenant).
 */
export function answerFilesFor(request: FastifyRequest, reader: Reader): void {
  publicReaders.set(request, reader);
}

/** Which tenant owns each stored file named: its attachment, or an older file kept in the database. */
async function ownersOf(db: Queryable, names: string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; tenant_id: string }>(
    `select name, tenant_id from blade_attach where name = any($1::text[])
     union all select name, tenant_id from res_file where name = any($1::text[])`,
    [names],
  );
  return new Map(rows.map((row) => [row.name, row.tenant_id]));
}

/**
 * Signs every file link on its way out in a JSON answer (token answers, profiles, resource rows,
 * import results), and strips the signature from links sent back in a form, so what is stored is
 * the bare link and never an expired one.
 *
 * A link is signed for the tenant owning the file, and only when the reader may see that tenant's
 * files: the reader's own, or any for the platform administrator. A bare link of another tenant's
 * file copied into a record stays bare, and so unreadable: a link once shared cannot be renewed
 * past its expiry from another tenant.
 */
export default fp(
  async (app: FastifyInstance, opts: { serverSecret: string; db: Queryable }) => {
    const links = new FileLinks(opts.serverSecret);
    app.decorate("fileLinks", links);
    app.addHook("preHandler", async (request) => {
      const body = request.body;
      if (!body || typeof body !== "object" || Array.isArray(body)) return;
      for (const [key, value] of Object.entries(body)) {
        if (typeof value === "string" && value.startsWith(FILE_LINK_BASE) && SIGNED_SUFFIX.test(value)) {
          (body as Record<string, unknown>)[key] = value.replace(SIGNED_SUFFIX, "");
        }
      }
    });
    app.addHook("onSend", async (request, reply, payload) => {
      if (typeof payload !== "string" || !payload.includes(FILE_LINK_BASE)) return payload;
      if (!String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return payload;
      const names = [...new Set(Array.from(payload.matchAll(LINK_IN_JSON), (match) => match[1]!))];
      if (names.length === 0) return payload;
      const user = request.user;
      const reader = user ? (isAdministrator(user) ? ANY_TENANT : user.tenantId) : publicReaders.get(request);
      const owners = reader === undefined ? new Map<string, string>() : await ownersOf(opts.db, names);
      const readable = (owner: string) => reader === ANY_TENANT || owner === reader;
      const now = Date.now();
      return payload.replace(LINK_IN_JSON, (_link, name: string) => {
        const owner = owners.get(name);
        return owner !== undefined && readable(owner)
          ? links.sign(owner, name, now)
          : `${FILE_LINK_BASE}/${name}`;
      });
    });
  },
  { name: "file-links" },
);

declare module "fastify" {
  interface FastifyInstance {
    fileLinks: FileLinks;
  }
}
