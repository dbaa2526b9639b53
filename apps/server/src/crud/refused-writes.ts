import { type ResourceDef, writePaths } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { badRequest } from "../contract/errors.ts";
import type { Queryable } from "../db/client.ts";
import { requirePermission } from "./permissions.ts";

/**
 * A write call of the spec that an append-only record refuses by design: whoever may use the screen
 * is told why and what to do instead (400, as any business rule answers), never a bare 404. The
 * answer is the same for every id, so no row is read: nothing of any tenant is touched or told.
 */
export function registerRefusal(
  app: FastifyInstance,
  db: Queryable,
  refusal: { url: string; codes: string[]; message: string; tags: string[] },
) {
  app.post(
    refusal.url,
    {
      schema: {
        tags: refusal.tags,
        summary: "Refused by design (append-only): 400 saying why and what to do instead",
      },
    },
    async (request) => {
      await requirePermission(db, request, refusal.codes);
      throw badRequest(refusal.message);
    },
  );
}

/** The refusals a resource declares (`refusedWrites`), behind its screen's read codes. */
export function registerRefusedWrites(
  app: FastifyInstance,
  db: Queryable,
  def: ResourceDef,
  r: { base: string; readCodes: string[]; tags: string[] },
) {
  const paths = writePaths(def);
  const refused = def.refusedWrites ?? {};
  for (const [verb, message] of [
    [paths.create, refused.submit],
    [paths.remove, refused.remove],
  ] as const) {
    if (message)
      registerRefusal(app, db, { url: `${r.base}/${verb}`, codes: r.readCodes, message, tags: r.tags });
  }
}
