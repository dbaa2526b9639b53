/**
 * The channel on which the database announces changes to the tables the shared caches read
 * (migrations/after-resources/002_cache_invalidation.sql): NOTIFY to every listening process, and a
 * notice of the same table to the connection that wrote.
 */
export const CHANGE_CHANNEL = "meterline_cache";

const NOTICE_PREFIX = `${CHANGE_CHANNEL}:`;

/** The table named by a change notice, or undefined for any other notice. */
export function changedTableOfNotice(message: string | undefined): string | undefined {
  return message?.startsWith(NOTICE_PREFIX) ? message.slice(NOTICE_PREFIX.length) : undefined;
}
