import type { CommandAction, CommandState } from "../model.ts";

/**
 * Command lifecycle (design.md §5): queued → sent → success | fail | timeout, where timeout means
 * "to be confirmed" and may still be resolved to success or fail by a later read-back. A command
 * can fail before it is sent (expired, unsupported by the meter), never the other way round.
 */
const NEXT: Readonly<Record<CommandState, readonly CommandState[]>> = {
  queued: ["sent", "fail"],
  sent: ["success", "fail", "timeout"],
  timeout: ["success", "fail"],
  success: [],
  fail: [],
};

export class IllegalTransition extends Error {
  constructor(
    readonly from: CommandState,
    readonly to: CommandState,
  ) {
    super(`command state ${from} cannot become ${to}`);
  }
}

export function canTransition(from: CommandState, to: CommandState): boolean {
  return NEXT[from].includes(to);
}

/** Checked transition: returns the new state or throws IllegalTransition. */
export function transition(from: CommandState, to: CommandState): CommandState {
  if (!canTransition(from, to)) throw new IllegalTransition(from, to);
  return to;
}

export function isFinal(state: CommandState): boolean {
  return NEXT[state].length === 0;
}

/** The spec's MSG_RESULT code for a finished (or to-be-confirmed) command; null while in flight. */
export function msgResult(state: CommandState): 0 | 1 | 2 | null {
  if (state === "success") return 1;
  if (state === "fail") return 0;
  if (state === "timeout") return 2;
  return null;
}

/**
 * Writes that change the meter (relay, valve, money) are never retried blindly: a lost reply does
 * not say whether the meter acted, and acting twice is worse than asking (metering-domain.md §1.7).
 * Reads change nothing and may be retried.
 */
export function mayRetry(action: CommandAction): boolean {
  return action.kind === "read";
}
