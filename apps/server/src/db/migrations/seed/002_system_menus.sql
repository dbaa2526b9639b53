-- System administration screens. A screen's code names the plain resource the console renders
-- there; its standard buttons (add, edit, delete, view, export: permission codes `<res>_<alias>`)
-- are created from the resource's definition (db/standard-buttons.ts). Only buttons beyond those
-- are listed here. action: 1 toolbar, 2 row, 3 both.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (200, 0, 'system', '系统管理', 'menu', '/system', 'setting', 80, 1, 0, 1),
  (210, 200, 'param', '参数管理', 'menu', '/system/param', 'tool', 90, 1, 0, 1),
  (220, 200, 'post', '岗位管理', 'menu', '/system/post', 'idcard', 40, 1, 0, 1);

insert into sys_top_menu (id, tenant_id, code, name, source, sort) values
  (3, '000000', 'system', '系统管理', 'setting', 3);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (200, 210, 220);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (230, 200, 'dict', '系统字典', 'menu', '/system/dict', 'book', 70, 1, 0, 1),
  (240, 200, 'dictBiz', '业务字典', 'menu', '/system/dict-biz', 'read', 75, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (230, 240);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (250, 200, 'client', '应用管理', 'menu', '/system/client', 'appstore', 95, 1, 0, 1),
  (260, 200, 'topMenu', '顶部菜单', 'menu', '/system/topmenu', 'menu', 35, 1, 0, 1),
  (110, 100, 'notice', '通知公告', 'menu', '/desk/notice', 'notification', 3, 1, 0, 1),
  (910, 900, 'logUsual', '通用日志', 'menu', '/monitor/log/usual', 'file', 2, 1, 0, 1),
  (920, 900, 'logApi', '接口日志', 'menu', '/monitor/log/api', 'api', 3, 1, 0, 1),
  (930, 900, 'logError', '错误日志', 'menu', '/monitor/log/error', 'bug', 4, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (250, 260);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 2, m.id from sys_menu m where m.id in (910, 920, 930);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 1, m.id from sys_menu m where m.id in (110);

insert into sys_role_menu (id, menu_id, role_id) values (4, 110, 2);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (270, 200, 'tenant', '租户管理', 'menu', '/system/tenant', 'team', 5, 1, 0, 1),
  (276, 270, 'tenant_setting', '授权配置', 'setting', '/api/blade-system/tenant/setting', 'setting', 6, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (270);
