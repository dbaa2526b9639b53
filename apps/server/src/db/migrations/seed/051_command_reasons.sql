-- Why a command was sent, in words, next to what it does wherever commands are listed (拉闸 · 欠费自动断电,
-- 合闸 · 充值恢复, 拉闸 · 手动): keyed by the command's source, and 'manual' / 'system' for a command
-- without one, sent by a person or by the server itself (operations/command-words.ts).
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2510, 0, 'command_reason', '-1', '命令原因', 'Command reason', 45, 0),
  (2511, 2510, 'command_reason', 'message/switch', '手动', 'Manual', 1, 0),
  (2512, 2510, 'command_reason', 'message/switchBatch', '手动（批量）', 'Manual (batch)', 2, 0),
  (2513, 2510, 'command_reason', 'message/waterSwitch', '手动', 'Manual', 3, 0),
  (2514, 2510, 'command_reason', 'message/waterSwitchBatch', '手动（批量）', 'Manual (batch)', 4, 0),
  (2515, 2510, 'command_reason', 'ownerGroup/closeMeter', '业主分组断电', 'Owner group cut', 5, 0),
  (2516, 2510, 'command_reason', 'arrears/cut', '欠费自动断电', 'Automatic cut for arrears', 6, 0),
  (2517, 2510, 'command_reason', 'arrears/restore', '充值恢复', 'Restored by recharge', 7, 0),
  (2518, 2510, 'command_reason', 'account/open', '开户', 'Account opening', 8, 0),
  (2519, 2510, 'command_reason', 'recharge/meter', '充值', 'Recharge', 9, 0),
  (2520, 2510, 'command_reason', 'manual', '手动', 'Manual', 10, 0),
  (2521, 2510, 'command_reason', 'system', '系统', 'System', 11, 0);
