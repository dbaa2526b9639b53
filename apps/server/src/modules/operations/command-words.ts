/** A command in words, as every list of commands shows it: what it does and why it was sent. */

/**
 * The key of what a command does, from its type and the direction in its payload: a relay switch
 * cuts (switchType 2) or restores (1), a valve opens or closes, a write sets a price (tariff, ladder
 * step or cycle, time-of-use table) or an alarm limit by its DI (scheme-writes.ts).
 * The keys name rows of the `command_action` dictionary.
 */
const actionKey = (c: string) => `case ${c}.command_type
    when 'switch' then 'switch.' || coalesce(${c}.payload::jsonb ->> 'switchType', '')
    when 'relay' then 'relay.' || coalesce(${c}.payload::jsonb ->> 'action', '')
    when 'valve' then case when ${c}.payload::jsonb ->> 'open' = 'true' then 'valve.open' else 'valve.close' end
    when 'write' then case
      when ${c}.payload::jsonb ->> 'di' like '040501%' or ${c}.payload::jsonb ->> 'di' like '04060%'
        or ${c}.payload::jsonb ->> 'di' = '0400F010' or ${c}.payload::jsonb ->> 'di' like '040002%'
        or ${c}.payload::jsonb ->> 'di' like '0401%' then 'write.price'
      when ${c}.payload::jsonb ->> 'di' like '040010%' then 'write.alarm'
      else 'write' end
    else ${c}.command_type end`;

/**
 * Why a command was sent, from the screen or rule that queued it (its source): the keys name rows of
 * the `command_reason` dictionary (seed/051). A command without a source was sent by a person when
 * it has a user, else by the server itself.
 */
const reasonKey = (c: string) =>
  `coalesce(${c}.source, case when ${c}.create_user is null then 'system' else 'manual' end)`;

export const dictJoin = (alias: string, code: string, key: string) =>
  `left join sys_dict ${alias} on ${alias}.code = '${code}' and ${alias}.parent_id > 0
     and ${alias}.is_deleted = 0 and ${alias}.dict_key = ${key}`;

/** The joins naming the command aliased `c` (aliases a and why; see COMMAND_WORDS_COLUMNS). */
export const commandWordsJoins = (c: string) =>
  `${dictJoin("a", "command_action", `(${actionKey(c)})`)}
   ${dictJoin("why", "command_reason", reasonKey(c))}`;

/** The action and the reason in both languages, from commandWordsJoins. */
export const COMMAND_WORDS_COLUMNS = `a.dict_value as action_name, a.dict_value_en as action_name_en,
  why.dict_value as why_name, why.dict_value_en as why_name_en`;
