/**
 * A frame as operators read it in DL/T 645 and CJ/T 188 tools: the gateway stores the bytes as
 * one run of hex ("68AAAAAAAAAAAA68..."), shown here byte by byte in upper case ("68 AA AA …").
 * Anything that is not such a run (a note, JSON) is shown unchanged.
 */
export function frameText(value: unknown): string {
  const text = typeof value === "string" ? value.trim() : "";
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || compact.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(compact)) return text;
  return (compact.toUpperCase().match(/../g) ?? []).join(" ");
}
