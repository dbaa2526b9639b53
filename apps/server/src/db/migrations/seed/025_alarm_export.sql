-- 告警记录's Excel export (spec api-contract §19: <menu>_export), a button of its own like the money
-- lists'. Roles that already read the screen get it, so an existing tenant's operators can export
-- what they see without an administrator granting it first.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (724, 720, 'checkRecord_export', '导出', 'export', '/api/blade-pms/checkRecord/export', 'download', 4, 2, 1, 1);

insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by rm.role_id), 724, rm.role_id
  from (select distinct role_id from sys_role_menu where menu_id = 720) rm;
