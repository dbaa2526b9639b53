import type { commandLogZh } from "../../i18n/command-log.zh.ts";

const STATES = ["queued", "sent", "delivered", "executed", "failed", "expired"] as const;

/**
 * The i18n key of an NB-IoT command's state at its operator's platform, or undefined for a command
 * the gateway sends itself (no platform state).
 */
export function platformStateKey(state: unknown): keyof typeof commandLogZh | undefined {
  return (STATES as readonly unknown[]).includes(state)
    ? (`commandLog.platform.${state as (typeof STATES)[number]}` as const)
    : undefined;
}
