/**
 * A command as every list shows it: what it does and why it was sent, "拉闸 · 欠费自动断电"
 * (the server names both, in the reader's language); either alone when the other is unknown.
 */
export const commandWords = (action: string, why: string): string =>
  [action, why].filter(Boolean).join(" · ");
