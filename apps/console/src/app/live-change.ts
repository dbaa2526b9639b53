/**
 * What changed on the server (modules/live): a meter's supply, an account's balance, a command's
 * progress; `meterIds` null when too many to name. `resync`: changes may have been missed (the
 * stream was lost), so every open page reads itself again.
 */
export interface LiveChange {
  kind: "supply" | "balance" | "command" | "resync";
  meterIds: readonly string[] | null;
}

/** Whether `change` concerns a page showing `meterIds` ("all": any change of those kinds). */
export function concerns(
  change: LiveChange,
  meterIds: readonly string[] | "all",
  kinds: readonly LiveChange["kind"][],
): boolean {
  if (change.kind === "resync") return true;
  if (!kinds.includes(change.kind)) return false;
  if (meterIds === "all" || change.meterIds === null) return true;
  return change.meterIds.some((id) => meterIds.includes(id));
}
