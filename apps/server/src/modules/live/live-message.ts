/** What a push stream carries: which kind of thing changed, in which tenant, for which meters. */
export type LiveKind = "supply" | "balance" | "command";

export interface LiveChange {
  tenantId: string;
  kind: LiveKind;
  /** The meters concerned; null when one write touched too many to name (every page reloads). */
  meterIds: string[] | null;
}

const PREFIX = "live:";
const KINDS: readonly string[] = ["supply", "balance", "command"];

/**
 * The change a 'live:' message on the change channel announces (migrations/044_live_events.sql),
 * or undefined for any other message (the caches' table names) or one that does not parse.
 */
export function liveChangeOf(message: string): LiveChange | undefined {
  if (!message.startsWith(PREFIX)) return undefined;
  let parsed: { t?: unknown; k?: unknown; m?: unknown };
  try {
    parsed = JSON.parse(message.slice(PREFIX.length)) as typeof parsed;
  } catch {
    return undefined;
  }
  if (typeof parsed.t !== "string" || typeof parsed.k !== "string" || !KINDS.includes(parsed.k))
    return undefined;
  const meterIds = Array.isArray(parsed.m)
    ? parsed.m.filter((id): id is string => typeof id === "string")
    : null;
  return { tenantId: parsed.t, kind: parsed.k as LiveKind, meterIds };
}

/** A change as the server announces it from its own code (a reading that changed a meter's supply). */
export const liveMessage = (change: LiveChange) =>
  `${PREFIX}${JSON.stringify({ t: change.tenantId, k: change.kind, m: change.meterIds })}`;
