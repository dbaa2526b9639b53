import { useCallback, useState } from "react";
import { reportNetworkError } from "./api.ts";

/**
 * A dialog's save: `saving` while `work` runs (its OK button spins), and a refusal reported once,
 * by the API bridge for the server's or here for the network's; the dialog keeps what was typed.
 */
export function useSaving(): { saving: boolean; save: (work: () => Promise<void>) => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const save = useCallback(async (work: () => Promise<void>) => {
    setSaving(true);
    try {
      await work();
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  }, []);
  return { saving, save };
}
