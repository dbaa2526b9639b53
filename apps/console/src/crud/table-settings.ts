import { useCallback, useState } from "react";
import { loadItem, saveItem, tableSettingsKey } from "../store/persist.ts";
import { useConsole } from "../store/useConsole.ts";

export type Density = "large" | "middle" | "small";
export const densities: readonly Density[] = ["large", "middle", "small"];

/** What a user chose for one table: the columns hidden and the row height. */
export interface TableSettings {
  hidden: string[];
  density: Density;
}

const fallback: TableSettings = { hidden: [], density: "middle" };

/** A stored value from an older or hand-edited browser is read defensively. */
function readSettings(key: ReturnType<typeof tableSettingsKey>): TableSettings {
  const content = loadItem<Partial<TableSettings>>(key)?.content;
  const hidden = Array.isArray(content?.hidden) ? content.hidden.filter((k) => typeof k === "string") : [];
  const density = densities.includes(content?.density as Density) ? (content?.density as Density) : "middle";
  return { hidden, density };
}

/**
 * The column choice and density of a resource table, remembered per user and resource in
 * localStorage the way the console keeps its theme and language (a stored record under a fixed
 * name), so they survive a reload and do not leak to the next user of the browser.
 */
export function useTableSettings(resource: string) {
  const userId = useConsole((state) => state.userInfo?.user_id ?? "anonymous");
  const key = tableSettingsKey(userId, resource);
  const [state, setState] = useState<{ key: string; settings: TableSettings }>(() => ({
    key,
    settings: readSettings(key),
  }));
  // Another user or resource on the same component: read theirs.
  const settings = state.key === key ? state.settings : readSettings(key);
  const update = useCallback(
    (change: Partial<TableSettings>) => {
      const next = { ...(state.key === key ? state.settings : readSettings(key)), ...change };
      saveItem(key, next);
      setState({ key, settings: next });
    },
    [key, state],
  );
  return { settings: settings ?? fallback, update };
}
