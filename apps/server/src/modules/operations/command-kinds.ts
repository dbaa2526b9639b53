import type { SqlParams } from "../../crud/sql.ts";

/**
 * Which commands each operation record shows (spec §7 dataswitch, datawriteprice, datawritealarm),
 * read from the command table itself: the records are views of `pms_meter_command`, never a copy.
 *
 * A write's kind is its DL/T 645 data identifier (scheme-writes.ts): 0405xxxx rate prices,
 * 0406xxxx ladder tables, 0400F010 the ladder cycle and the time-of-use counts (040002xx) and tables
 * (0401xxxx) are prices, 040010xx the alarm amounts and overdraft. A command type that
 * names its kind (`writePrice`, `waterPrice`, `writeAlarm`, `waterSwitch` …) lands by its name, so a
 * new write type shows up in its record without a change here. The DI is read only from `write`
 * rows (a CASE, so no other payload is ever cast).
 */
const writeDi = (t: string) =>
  `(case when ${t}.command_type = 'write' then ${t}.payload::jsonb ->> 'di' end)`;

export const COMMAND_KINDS = {
  switch: (t: string) =>
    `(${t}.command_type in ('switch', 'relay', 'valve') or lower(${t}.command_type) like '%switch%')`,
  price: (t: string) =>
    `(${writeDi(t)} like '0405%' or ${writeDi(t)} like '0406%' or ${writeDi(t)} = '0400F010'
      or ${writeDi(t)} like '040002%' or ${writeDi(t)} like '0401%' or lower(${t}.command_type) like '%price%')`,
  alarm: (t: string) => `(${writeDi(t)} like '040010%' or lower(${t}.command_type) like '%alarm%')`,
} as const;

export type CommandKind = keyof typeof COMMAND_KINDS;

/** The predicate a record's list, detail and remove are limited by (alias `t`). */
export const commandsOfKind =
  (kind: CommandKind) =>
  (_user: unknown, _sql: SqlParams): string[] => [COMMAND_KINDS[kind]("t")];
