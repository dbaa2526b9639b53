-- Operation records under 运行控制: every command sent (message) and the switch, price-write and
-- alarm-write records. Their standard buttons (view, edit remark, delete settled, export) are
-- seeded from the resource definitions.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (780, 700, 'message', '下发记录', 'menu', '/operation/message', 'notification', 12, 1, 0, 1),
  (781, 700, 'dataSwitch', '拉合闸记录', 'menu', '/operation/dataswitch', 'thunderbolt', 13, 1, 0, 1),
  (782, 700, 'dataWritePrice', '写价格记录', 'menu', '/operation/datawriteprice', 'dollar', 14, 1, 0, 1),
  (783, 700, 'dataWriteAlarm', '写告警值记录', 'menu', '/operation/datawritealarm', 'bell', 15, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (780, 781, 782, 783);

-- The command log was read-only: a database seeded before gets its new buttons here (remark,
-- remove of settled commands); a fresh one would get them from the definition as well.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open)
select 711, 710, 'meterCommand_edit', '修改', 'edit', '/operation/metercommand/edit', 'form', 2, 2, 2, 1
 where not exists (select 1 from sys_menu where code = 'meterCommand_edit' and is_deleted = 0);
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open)
select 712, 710, 'meterCommand_delete', '删除', 'delete', '/api/blade-pms/metercommand/remove', 'delete', 3, 2, 3, 1
 where not exists (select 1 from sys_menu where code = 'meterCommand_delete' and is_deleted = 0);
