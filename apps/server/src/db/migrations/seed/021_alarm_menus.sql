-- Alarms under 运行控制: the check records (the notice bell's source, with ignore and close) and the
-- tenant's alarm rules (a plain resource: its standard buttons are seeded from its definition).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (720, 700, 'checkRecord', '告警记录', 'menu', '/operation/checkrecord', 'alert', 20, 1, 0, 1),
  (730, 700, 'alarm', '告警规则', 'menu', '/operation/alarm', 'bell', 30, 1, 0, 1),
  (721, 720, 'checkRecord_ignore', '忽略', 'ignore', '/api/blade-pms/checkIgnore/save', 'eye-invisible', 1, 2, 2, 1),
  (722, 720, 'checkRecord_close', '关闭', 'close', '/api/blade-pms/checkRecord/close', 'close', 2, 2, 2, 1),
  (723, 720, 'checkRecord_delete', '删除', 'delete', '/blade-pms/checkRecord/remove', 'delete', 3, 2, 3, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (720, 730);

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1400, 0, 'alarm_rule', '-1', '告警规则', 'Alarm rule', 43, 0),
  (1401, 1400, 'alarm_rule', 'balance_low', '余额不足', 'Low balance', 1, 0),
  (1402, 1400, 'alarm_rule', 'balance_severe', '余额严重不足', 'Severely low balance', 2, 0),
  (1403, 1400, 'alarm_rule', 'arrears', '欠费', 'Arrears', 3, 0),
  (1404, 1400, 'alarm_rule', 'offline', '表计离线', 'Meter offline', 4, 0),
  (1405, 1400, 'alarm_rule', 'register_back', '读数倒走', 'Register went backwards', 5, 0),
  (1406, 1400, 'alarm_rule', 'register_jump', '读数跳变', 'Register jumped', 6, 0),
  (1407, 1400, 'alarm_rule', 'water_flow', '持续流水', 'Continuous water flow', 7, 0),
  (1410, 0, 'ignore_type', '-1', '忽略方式', 'Ignore type', 44, 0),
  (1411, 1410, 'ignore_type', '1', '忽略本次', 'Ignore this time', 1, 0),
  (1412, 1410, 'ignore_type', '2', '忽略7天', 'Ignore 7 days', 2, 0),
  (1413, 1410, 'ignore_type', '3', '永久忽略', 'Ignore permanently', 3, 0);
