import type { MessageKey } from "../../i18n/index.tsx";

/** Morning before 12:00, afternoon before 18:00, evening after. */
export function greetingKey(hour: number): MessageKey {
  if (hour < 12) return "home.morning";
  if (hour < 18) return "home.afternoon";
  return "home.evening";
}

/** "2 d 3 h …" parts of a duration in seconds; never negative. */
export function durationParts(totalSeconds: number): { d: number; h: number; m: number; s: number } {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return {
    d: Math.floor(seconds / 86_400),
    h: Math.floor((seconds % 86_400) / 3600),
    m: Math.floor((seconds % 3600) / 60),
    s: seconds % 60,
  };
}
