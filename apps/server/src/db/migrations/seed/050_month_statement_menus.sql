-- 月度对账单 (issue 34): a month of billed money per account, owner, room, building or site under
-- 收费管理, with its Excel and PDF buttons (contract §19 codes `<menu>_<alias>`). Granted to every
-- role that holds 收费管理; new tenants' administrators get it too.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2100, 800, 'monthStatement', '月度对账单', 'menu', '/money/monthstatement', 'file-text', 65, 1, 0, 1),
  (2101, 2100, 'monthStatement_export', '导出', 'export', '/api/blade-pms/statement/monthExport', 'download', 1, 2, 1, 1),
  (2102, 2100, 'monthStatement_pdf', 'PDF', 'pdf', '/api/blade-pms/statement/monthPdf', 'file-pdf', 2, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2100;

insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (3100 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id = 800) as g
  cross join (select id from sys_menu where id between 2100 and 2102) as m
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',monthStatement'
 where param_key = 'tenant.default.menuCode';
