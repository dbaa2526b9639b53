import type { ResourceHooks } from "../../crud/hooks.ts";
import { byRoomAreaHooks } from "../pms/registry.hooks.ts";

/**
 * dataReadOther and dataReadOtherHis: views of the electric reading logs (live and history) showing
 * only the reads entered by hand; the area filter as on the logs themselves.
 */
export const manualReadHooks: ResourceHooks = {
  ...byRoomAreaHooks,
  hiddenRows: () => ["t.source = 'manual'"],
};
