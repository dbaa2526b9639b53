-- A supply cut queued by an account's closing is listed in the command log as coming from 销户.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (4901, 1250, 'command_source', 'account/close', '销户', 'Account closing', 10, 0);
