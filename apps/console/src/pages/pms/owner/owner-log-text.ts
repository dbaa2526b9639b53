/** How one entry of an owner's change log reads: one line per changed or recorded value. */
export interface LogWords {
  /** The label of a value's key (camelCase): a field of the owner, a room, a group. */
  label: (key: string) => string;
  /** A stored value as shown (dictionary names for coded fields). */
  value: (key: string, value: unknown) => string;
  yes: string;
  no: string;
  empty: string;
}

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
/** Ids mean nothing to a reader; their names are logged beside them. */
const isId = (key: string) => key === "id" || /Id$/.test(key);

function plain(key: string, value: unknown, words: LogWords): string {
  if (value === null || value === undefined || value === "") return words.empty;
  if (typeof value === "boolean") return value ? words.yes : words.no;
  if (Array.isArray(value)) return value.map((item) => plain(key, item, words)).join("、") || words.empty;
  if (typeof value === "object") {
    // A listed link, e.g. {roomId, room}: its readable parts, ids left out.
    const parts = Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !isId(camel(k)))
      .map(([k, v]) => plain(camel(k), v, words));
    return parts.join(" ") || words.empty;
  }
  return words.value(key, value);
}

const isBlank = (value: unknown) => value === null || value === undefined || value === "";

const isChange = (value: unknown): value is { from: unknown; to: unknown } =>
  Boolean(value) &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  "from" in (value as object) &&
  "to" in (value as object);

/**
 * The readable lines of a log entry's JSON content: `label: old → new` for a change, `label: value`
 * for recorded values; text that is not a JSON object is shown as it is.
 */
export function describeLogContent(content: string, words: LogWords): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return content ? [content] : [];
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return [String(content)];
  return (
    Object.entries(parsed as Record<string, unknown>)
      .map(([raw, value]) => [camel(raw), value] as const)
      // Recorded values that are empty say nothing (a new owner without a phone); changes always show.
      .filter(([key, value]) => !isId(key) && (isChange(value) || !isBlank(value)))
      .map(([key, value]) =>
        isChange(value)
          ? `${words.label(key)}: ${plain(key, value.from, words)} → ${plain(key, value.to, words)}`
          : `${words.label(key)}: ${plain(key, value, words)}`,
      )
  );
}
