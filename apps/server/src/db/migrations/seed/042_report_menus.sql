-- 报表 (contract §19: `report` /report → `report_list` /report/reportlist) with the standard buttons
-- and the export, granted to every role that holds 收费管理; new tenants' administrators get it too.
-- The shipped definitions are templates without tenant: every tenant runs and copies them.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2020, 0, 'report', '报表管理', 'menu', '/report', 'bar-chart', 85, 1, 0, 1),
  (2021, 2020, 'report_list', '报表', 'menu', '/report/reportlist', 'bar-chart', 1, 1, 0, 1),
  (2022, 2021, 'report_list_add', '新增', 'add', '/api/blade-report/report/rest/submit', 'plus', 1, 2, 1, 1),
  (2023, 2021, 'report_list_edit', '修改', 'edit', '/api/blade-report/report/rest/submit', 'form', 2, 2, 2, 1),
  (2024, 2021, 'report_list_delete', '删除', 'delete', '/api/blade-report/report/rest/remove', 'delete', 3, 2, 3, 1),
  (2025, 2021, 'report_list_view', '查看', 'view', '/api/blade-report/report/rest/run', 'file-text', 4, 2, 2, 1),
  (2026, 2021, 'report_list_export', '导出', 'export', '/api/blade-report/report/rest/export', 'download', 5, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2020;

insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (3000 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id = 800) as g
  cross join (select id from sys_menu where id between 2020 and 2026) as m
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',report'
 where param_key = 'tenant.default.menuCode';

insert into blade_report_file (id, tenant_id, name, content) values
  (2020, null, '各楼栋月用电量', convert_to('{"dataset":"daily_usage","groupBy":["building","month"],"measures":[{"column":"usage","fn":"sum"}],"filters":[{"key":"energy_type","value":"1"}],"chart":"bar"}', 'UTF8')),
  (2021, null, '每日各支付方式充值', convert_to('{"dataset":"recharges","groupBy":["day","payment_method"],"measures":[{"column":"amount","fn":"sum"},{"column":"amount","fn":"count"}],"filters":[{"key":"recharge_type","value":"1"}],"chart":"line"}', 'UTF8')),
  (2022, null, '欠费清单', convert_to('{"dataset":"balances","groupBy":["owner","room","meter"],"measures":[{"column":"balance","fn":"sum"}],"filters":[{"key":"arrears","value":"1"}],"chart":"table"}', 'UTF8'));
