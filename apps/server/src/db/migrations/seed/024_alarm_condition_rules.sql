-- The meter check rules that read the meters' own reports (status words, clock, cover, relay,
-- battery, valve, power) and the command queue: their names in the alarm_rule dictionary.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1431, 1400, 'alarm_rule', 'reverse_energy', '电能反向', 'Reverse energy', 8, 0),
  (1432, 1400, 'alarm_rule', 'clock_drift', '时钟偏差', 'Meter clock off', 9, 0),
  (1433, 1400, 'alarm_rule', 'cover_open', '开表盖', 'Meter cover opened', 10, 0),
  (1434, 1400, 'alarm_rule', 'relay_fault', '继电器故障', 'Relay fault', 11, 0),
  (1435, 1400, 'alarm_rule', 'battery_low', '电池欠压', 'Battery low', 12, 0),
  (1436, 1400, 'alarm_rule', 'valve_fault', '阀门故障', 'Valve fault', 13, 0),
  (1437, 1400, 'alarm_rule', 'over_power', '功率超限', 'Power over limit', 14, 0),
  (1438, 1400, 'alarm_rule', 'command_unsettled', '指令待确认', 'Command not confirmed', 15, 0);
