import { website } from "@meterline/contracts";
import type { TokenRecord } from "../store/state.ts";

/** Seconds since the token was stored (spec §9 measures the age in seconds). */
export function tokenAgeSeconds(token: TokenRecord, now: number): number {
  return (now - token.datetime) / 1000;
}

/** A refresh is due once the token's age reaches website.tokenTime. */
export function refreshDue(token: TokenRecord | null, now: number): boolean {
  return Boolean(token?.content) && tokenAgeSeconds(token as TokenRecord, now) >= website.tokenTime;
}
