-- The command log: what was sent to meters and how each command settled.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (700, 0, 'operation', '运行控制', 'menu', '/operation', 'control', 7, 1, 0, 1),
  (710, 700, 'meterCommand', '命令记录', 'menu', '/operation/metercommand', 'message', 10, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (700, 710);

update sys_param set param_value = 'operation,' || param_value where param_key = 'tenant.default.menuCode';

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1210, 0, 'command_type', '-1', '命令类型', 'Command type', 41, 0),
  (1211, 1210, 'command_type', 'switch', '拉合闸', 'Relay switch', 1, 0),
  (1212, 1210, 'command_type', 'relay', '继电器控制', 'Relay control', 2, 0),
  (1213, 1210, 'command_type', 'valve', '阀门控制', 'Valve', 3, 0),
  (1214, 1210, 'command_type', 'read', '读数据', 'Read', 4, 0),
  (1215, 1210, 'command_type', 'write', '写参数', 'Write', 5, 0),
  (1216, 1210, 'command_type', 'recharge', '充值写表', 'Recharge write', 6, 0),
  (1220, 0, 'command_state', '-1', '命令状态', 'Command state', 42, 0),
  (1221, 1220, 'command_state', 'queued', '排队中', 'Queued', 1, 0),
  (1222, 1220, 'command_state', 'sent', '已发送', 'Sent', 2, 0),
  (1223, 1220, 'command_state', 'success', '成功', 'Succeeded', 3, 0),
  (1224, 1220, 'command_state', 'fail', '失败', 'Failed', 4, 0),
  (1225, 1220, 'command_state', 'timeout', '超时待确认', 'Timed out, to be confirmed', 5, 0);
