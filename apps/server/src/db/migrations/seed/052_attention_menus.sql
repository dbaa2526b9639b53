-- 待关注账户 under 运行控制 beside 告警记录 (issue 34 part 7): the accounts at a balance alarm level or
-- whose supply is cut within N days, with its export and the owners' balance reminder SMS
-- (contract §19 button style). New tenants' administrators get the screen.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2200, 700, 'attention', '待关注账户', 'menu', '/operation/attention', 'notification', 22, 1, 0, 1),
  (2201, 2200, 'attention_export', '导出', 'export', '/api/blade-pms/attention/export', 'download', 1, 2, 1, 1),
  (2202, 2200, 'attention_remind', '短信提醒', 'remind', '/api/blade-pms/attention/remind', 'message', 2, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2200;

update sys_param set param_value = param_value || ',attention' where param_key = 'tenant.default.menuCode';

-- What an owner message is about when no alarm raised it: the operator's balance reminder.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1439, 1400, 'alarm_rule', 'reminder', '余额提醒', 'Balance reminder', 16, 0);
