/** localStorage names of everything the console keeps across reloads (spec §9: fixed names). */
export const storageKeys = {
  token: "saber-token",
  refreshToken: "saber-refresh-token",
  tenantId: "saber-tenant-id",
  userInfo: "saber-userInfo",
  tabs: "saber-tag-list",
  lock: "saber-lock",
  lockPassword: "saber-lock-password",
  theme: "saber-theme",
  color: "saber-color",
  language: "saber-language",
  collapse: "saber-collapse",
  logs: "saber-logs",
} as const;

/**
 * A table's own settings (shown columns, density), one name per user and resource so people who
 * share a browser keep theirs: `saber-table-<user id>-<resource>`.
 */
export const tableSettingsKey = (userId: string, resource: string) =>
  `saber-table-${userId}-${resource}` as const;

/** Whether the notice bell speaks new alarms, one name per user: `saber-alarm-voice-<user id>`. */
export const alarmVoiceKey = (userId: string) => `saber-alarm-voice-${userId}` as const;

export type StorageKey =
  | (typeof storageKeys)[keyof typeof storageKeys]
  | ReturnType<typeof tableSettingsKey>
  | ReturnType<typeof alarmVoiceKey>;

/** What is written under each name: the stored record of spec §3 (datetime, content, dataType, type). */
export interface StoredRecord<T> {
  dataType: string;
  content: T;
  /** Epoch milliseconds of the write; the token's age is measured from it. */
  datetime: number;
  type: "local";
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Access can throw in sandboxed frames; the console then simply forgets on reload.
    return null;
  }
}

export function saveItem<T>(key: StorageKey, content: T, datetime = Date.now()): void {
  const record: StoredRecord<T> = { dataType: typeof content, content, datetime, type: "local" };
  try {
    storage()?.setItem(key, JSON.stringify(record));
  } catch {
    // Quota exceeded: keeping the session running matters more than persisting this value.
  }
}

export function loadItem<T>(key: StorageKey): StoredRecord<T> | null {
  const text = storage()?.getItem(key);
  if (!text) return null;
  try {
    const record = JSON.parse(text) as StoredRecord<T>;
    return record && typeof record === "object" && "content" in record ? record : null;
  } catch {
    return null;
  }
}

export function removeItem(key: StorageKey): void {
  storage()?.removeItem(key);
}
