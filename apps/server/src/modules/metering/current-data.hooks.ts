import type { ResourceHooks } from "../../crud/hooks.ts";

/**
 * metercurrentdata: rows the operator hid (metercurrentdata/remove) leave the lists, the detail and
 * the export until the meter's next poll shows them again; they are never deleted.
 */
export const currentDataHooks: ResourceHooks = {
  hiddenRows: () => ["coalesce(t.hidden, 0) = 0"],
};
