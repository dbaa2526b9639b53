-- Price and alarm-limit writes to local-prepaid meters from the meter screen (spec §7 message
-- writePriceBatch / writeAlarmBatch), a button each (api-contract §19). Roles that may already
-- switch meters get them, as both send commands to the same meters.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (464, 460, 'meter_write_price', '写电价', 'writePrice', '/api/blade-pms/message/writePriceBatch', 'edit', 11, 2, 2, 1),
  (465, 460, 'meter_write_alarm', '写告警金额', 'writeAlarm', '/api/blade-pms/message/writeAlarmBatch', 'bell', 12, 2, 2, 1);

insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by rm.role_id, m.id), m.id, rm.role_id
  from (select distinct role_id from sys_role_menu where menu_id = 461) rm
 cross join (values (464), (465)) m(id);
