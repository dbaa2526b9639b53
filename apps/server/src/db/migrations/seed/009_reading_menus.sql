-- Readings screens: the latest values of every meter, written by the gateway.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (600, 0, 'reading', '抄表数据', 'menu', '/reading', 'dashboard', 6, 1, 0, 1),
  (610, 600, 'meterCurrentData', '实时数据', 'menu', '/reading/metercurrentdata', 'thunderbolt', 10, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (600, 610);

update sys_param set param_value = 'reading,' || param_value where param_key = 'tenant.default.menuCode';
