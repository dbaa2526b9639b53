/** The steps of a new site (开通向导), in the order they depend on each other. */
export const SETUP_STEPS = [
  "areas",
  "rooms",
  "chargingSchemes",
  "alarmSchemes",
  "collectors",
  "meters",
  "owners",
  "accounts",
  "recharges",
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** Counts past this read as "this many or more": a checklist needs "some", never a full scan. */
export const SETUP_COUNT_BOUND = 1000;

/** `GET /api/blade-pms/setup/progress`: each step's count (bounded) and the next step to take. */
export interface SetupProgress {
  counts: Record<SetupStep, number>;
  /** The first step with nothing yet; null once the site has taken its first recharge. */
  next: SetupStep | null;
  done: boolean;
}
