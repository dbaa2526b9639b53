import type { QueryParams } from "@meterline/api-client";
import { type ResourceDef, resourceBase } from "@meterline/contracts";
import { api } from "../app/api.ts";

/** Every row a search matches, as the server's `matching-ids` lists them (none when over `limit`). */
export interface Matching {
  total: number;
  limit: number;
  ids: string[];
  /** What names each row (a meter's number), in the order of `ids`. */
  names: string[];
}

/** The rows of a search for a batch over "all matching": the same filters as the table's list. */
export const loadMatching = (def: ResourceDef, search: QueryParams) =>
  api.get<Matching>(`${resourceBase(def)}/matching-ids`, search);

/** The matching rows as the batch dialogs take them: id and the number that names it. */
export const matchingMeters = (m: Matching) => m.ids.map((id, i) => ({ id, productCode: m.names[i] ?? id }));
