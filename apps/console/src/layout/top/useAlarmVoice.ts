import type { Row } from "@meterline/api-client";
import { useCallback, useRef, useState } from "react";
import { loadSpeech } from "../../pages/operation/alarm/alarm-calls.ts";
import { alarmVoiceKey, loadItem, saveItem } from "../../store/persist.ts";
import type { Language } from "../../store/state.ts";
import { useConsole } from "../../store/useConsole.ts";

/** Ids are snowflakes: a later record has a larger id. Text that is no id counts as the oldest. */
const idOf = (row: Row) => {
  const text = String(row.id ?? "");
  return /^\d{1,20}$/.test(text) ? BigInt(text) : -1n;
};

/** The browser's speech synthesis, or null where it has none (the toggle is then not offered). */
export const speechOf = (): SpeechSynthesis | null =>
  typeof window !== "undefined" && "speechSynthesis" in window ? window.speechSynthesis : null;

function speak(text: string, language: Language) {
  const synthesis = speechOf();
  if (!synthesis || !text || typeof SpeechSynthesisUtterance === "undefined") return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = language === "en" ? "en-US" : "zh-CN";
  synthesis.speak(utterance);
}

/**
 * The bell's voice: on or off, remembered per user in localStorage like the console's other
 * settings. `heard` takes every list the bell reads: the first one only marks what is there (the
 * backlog on page load is not read out), and afterwards each record newer than any seen before is
 * spoken with the sentence the server gives for its rule (SpeechByContent) — while the voice is on.
 * Alarms that arrive while it is off are marked all the same, so turning it on never reads a pile.
 */
export function useAlarmVoice() {
  const userId = useConsole((state) => state.userInfo?.user_id ?? "anonymous");
  const language = useConsole((state) => state.language);
  const key = alarmVoiceKey(userId);
  const [stored, setStored] = useState(() => ({ key, on: loadItem<boolean>(key)?.content === true }));
  // Another user signed in on the same bell: read theirs.
  const on = stored.key === key ? stored.on : loadItem<boolean>(key)?.content === true;
  const newest = useRef<bigint | null>(null);

  const setOn = useCallback(
    (value: boolean) => {
      saveItem(key, value);
      setStored({ key, on: value });
    },
    [key],
  );

  const heard = useCallback(
    (records: readonly Row[]) => {
      const before = newest.current;
      // Bigints: Math.max does not take them.
      let latest = before ?? -1n;
      for (const row of records) if (idOf(row) > latest) latest = idOf(row);
      newest.current = latest;
      if (before === null || !on) return;
      // Oldest first, as they arrived; one sentence per rule, so a burst of one fault is said once.
      const fresh = records.filter((row) => idOf(row) > before).reverse();
      const names = [...new Set(fresh.map((row) => String(row.checkRuleName ?? "")).filter(Boolean))];
      for (const name of names)
        loadSpeech(name, language)
          .then((text) => speak(text, language))
          // Not spoken this time; the alarm still shows in the bell.
          .catch(() => undefined);
    },
    [on, language],
  );

  return { on, setOn, heard, available: speechOf() !== null };
}
