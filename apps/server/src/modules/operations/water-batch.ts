import { badRequest } from "../../contract/errors.ts";
import { MAX_BATCH } from "./switching.ts";

/**
 * The meter ids of a water batch, each once: none or more than a batch holds is a 400; `wanted`
 * leaves out the ids the caller may not see, which the batch then names as absent.
 */
export function batchMeterIds(
  meterIds: readonly string[],
  hidden: readonly string[] = [],
): { all: string[]; wanted: string[] } {
  const all = [...new Set(meterIds)];
  if (all.length === 0) throw badRequest("meterIds: 请选择表计");
  if (all.length > MAX_BATCH) throw badRequest(`meterIds: 一次最多 ${MAX_BATCH} 块表`);
  const outside = new Set(hidden);
  return { all, wanted: all.filter((id) => !outside.has(id)) };
}
