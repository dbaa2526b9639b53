import {
  GLOBAL_SEARCH_DEFAULT_LIMIT,
  GLOBAL_SEARCH_MAX_KEYWORD,
  GLOBAL_SEARCH_MAX_LIMIT,
  GLOBAL_SEARCH_MAX_WORDS,
  GLOBAL_SEARCH_PATH,
  readCodesOf,
  resources,
} from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badParam, forbidden, missingParam, unauthorized } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { grantedCodes } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { isAdministrator } from "../auth/current-user.ts";
import { GlobalSearch, type ReadableKinds } from "./global-search.ts";
import { registryTenant } from "./registry-access.ts";

/** The words of a keyword as a person types them: split on any whitespace, bounded in length and number. */
export function searchWords(params: Record<string, unknown>): string[] {
  const keyword = optionalString(params, "keyword")?.trim();
  if (!keyword) throw missingParam("keyword");
  if (keyword.length > GLOBAL_SEARCH_MAX_KEYWORD) throw badParam("keyword");
  const words = keyword.split(/\s+/u);
  if (words.length > GLOBAL_SEARCH_MAX_WORDS) throw badParam("keyword");
  return words;
}

function searchLimit(params: Record<string, unknown>): number {
  const text = optionalString(params, "limit");
  if (text === undefined) return GLOBAL_SEARCH_DEFAULT_LIMIT;
  if (!/^\d{1,3}$/.test(text)) throw badParam("limit");
  const limit = Number(text);
  if (limit < 1 || limit > GLOBAL_SEARCH_MAX_LIMIT) throw badParam("limit");
  return limit;
}

/** The kinds whose screen the caller may read (menu or any button): the others stay empty; none is a 403. */
async function readableKinds(db: Db, request: FastifyRequest): Promise<ReadableKinds> {
  const user = request.user;
  if (!user) throw unauthorized();
  const granted = isAdministrator(user) ? undefined : await grantedCodes(db, request);
  const kinds: ReadableKinds = {};
  for (const name of ["room", "owner", "meter", "water", "collector"] as const) {
    const def = resources[name];
    if (!granted || readCodesOf(def).some((code) => granted.has(code))) kinds[name] = def;
  }
  if (Object.keys(kinds).length === 0) throw forbidden("无权限执行此操作");
  // Rooms are answered with their areas' names, which any room reader sees in the room screen.
  if (kinds.room) kinds.area = resources.area;
  return kinds;
}

/** The console's global search (top bar, Ctrl+K): see packages/contracts/src/search.ts. */
export async function globalSearchRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  app.get(
    GLOBAL_SEARCH_PATH,
    {
      schema: {
        tags: ["search"],
        summary: "Rooms (with their area path), owners, meters and collectors holding every word of keyword",
      },
    },
    async (request) => {
      // Permission first: a caller who may read none of the kinds learns nothing, not even a 400.
      const kinds = await readableKinds(db, request);
      const params = readParams(request);
      const words = searchWords(params);
      const limit = searchLimit(params);
      const tenantId = registryTenant(request.user!, params);
      return ok(await new GlobalSearch(db, request, { words, limit, tenantId }).run(kinds));
    },
  );
}
