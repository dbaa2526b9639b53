-- Water meters' price-table and alarm-amount writes and valve-state reads from the water meter
-- screen (spec §7 waterparam modWaterPriceBatch / modWaterAlarmBatch, message waterSwitchStatusResult
-- / waterSwitchStatusBatch), a button each. Roles that had the water meter screen get them.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1720, 470, 'water_write_price', '写水价', 'writePrice', '/api/blade-pms/waterparam/modWaterPriceBatch', 'edit', 11, 2, 2, 1),
  (1721, 470, 'water_write_alarm', '写告警值', 'writeAlarm', '/api/blade-pms/waterparam/modWaterAlarmBatch', 'bell', 12, 2, 2, 1),
  (1722, 470, 'water_valve_status', '读阀门状态', 'valveStatus', '/api/blade-pms/message/waterSwitchStatusBatch', 'eye', 13, 2, 2, 1);

insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by rm.role_id, m.id), m.id, rm.role_id
  from (select distinct role_id from sys_role_menu where menu_id = 470) rm
 cross join (values (1720), (1721), (1722)) m(id);

-- The command log in words (seed 016): the new commands and the calls they come from.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed)
select coalesce((select max(id) from sys_dict), 0) + w.n, w.parent_id, w.code, w.dict_key, w.dict_value, w.dict_value_en, w.sort, 0
  from (values
    (1, 1230, 'command_action', 'waterPrice', '写水价', 'Write water prices', 20),
    (2, 1230, 'command_action', 'waterAlarm', '写告警值', 'Write alarm amounts', 21),
    (3, 1230, 'command_action', 'valveStatus', '读阀门状态', 'Read valve state', 22),
    (4, 1250, 'command_source', 'waterparam/modWaterPriceBatch', '水表管理（写水价）', 'Water meters (write prices)', 20),
    (5, 1250, 'command_source', 'waterparam/modWaterAlarmBatch', '水表管理（写告警值）', 'Water meters (write alarm amounts)', 21),
    (6, 1250, 'command_source', 'waterparam/control', '水表管理', 'Water meters', 22),
    (7, 1250, 'command_source', 'message/waterSwitchStatusResult', '水表管理（读阀门状态）', 'Water meters (valve state)', 23),
    (8, 1250, 'command_source', 'message/waterSwitchStatusBatch', '水表管理（批量读阀门状态）', 'Water meters (valve states)', 24)
  ) as w(n, parent_id, code, dict_key, dict_value, dict_value_en, sort);
