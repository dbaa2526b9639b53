-- Remote switching from the meter screens: relays of electric meters, valves of water meters.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (461, 460, 'meter_switch', '拉合闸', 'switch', '/api/blade-pms/message/switchBatch', 'thunderbolt', 8, 2, 2, 1),
  (471, 470, 'water_switch', '开关阀', 'switch', '/api/blade-pms/message/waterSwitchBatch', 'control', 8, 2, 2, 1);
