const DAY_MS = 86_400_000;

/** The notice starts this many days before the tenant's licence ends. */
export const EXPIRY_WARNING_DAYS = 30;

/** Whole days from `now` until `expireTime` (`yyyy-MM-dd HH:mm:ss`); null when it never expires. */
export function daysUntil(expireTime: string, now: number): number | null {
  if (!expireTime) return null;
  const at = new Date(expireTime.replace(" ", "T")).getTime();
  if (Number.isNaN(at)) return null;
  return Math.floor((at - now) / DAY_MS);
}

/** Notify when the licence ends within EXPIRY_WARNING_DAYS days, or has already ended. */
export function shouldNotifyExpiry(expireTime: string, now: number): boolean {
  const days = daysUntil(expireTime, now);
  return days !== null && days <= EXPIRY_WARNING_DAYS;
}
