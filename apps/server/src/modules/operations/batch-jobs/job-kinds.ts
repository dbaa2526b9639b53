import type { BatchJobKind } from "@meterline/contracts";

/**
 * Jobs whose meters are worked by the server itself, one meter per transaction (money/account-jobs.ts),
 * rather than planned commands fed to the queue: opening and closing accounts. The commands such a
 * meter starts (a local-prepaid meter's scheme and deposit writes, its clearing) are money writes
 * with their own settlement: a cancel never withdraws them.
 */
export const ACCOUNT_JOB_KINDS = ["openAccount", "closeAccount"] as const satisfies readonly BatchJobKind[];
export type AccountJobKind = (typeof ACCOUNT_JOB_KINDS)[number];

export const isAccountJob = (kind: string): kind is AccountJobKind =>
  (ACCOUNT_JOB_KINDS as readonly string[]).includes(kind);

/** SQL list of the account kinds (constants of the code, never input). */
export const ACCOUNT_KINDS_SQL = ACCOUNT_JOB_KINDS.map((kind) => `'${kind}'`).join(", ");
