-- Screens of users' access: departments, roles (with their grant button) and menus.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (300, 200, 'dept', '机构管理', 'menu', '/system/dept', 'apartment', 20, 1, 0, 1),
  (310, 200, 'role', '角色管理', 'menu', '/system/role', 'safety', 30, 1, 0, 1),
  (316, 310, 'role_grant', '权限设置', 'role', '/api/blade-system/role/grant', 'key', 6, 2, 2, 1),
  (320, 200, 'menu', '菜单管理', 'menu', '/system/menu', 'bars', 60, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (300, 310, 320);

update sys_param set param_value = param_value || ',dept,role'
 where param_key = 'tenant.default.menuCode';

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (330, 200, 'dataScope', '数据权限', 'menu', '/system/data-scope', 'database', 62, 1, 0, 1),
  (340, 200, 'apiScope', '接口权限', 'menu', '/system/api-scope', 'api', 64, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (330, 340);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (350, 200, 'user', '用户管理', 'menu', '/system/user', 'user', 10, 1, 0, 1),
  (356, 350, 'user_import', '导入', 'import', '/system/user/import', 'upload', 6, 2, 1, 1),
  (357, 350, 'user_role', '角色配置', 'role', '/api/blade-user/grant', 'team', 7, 2, 1, 1),
  (358, 350, 'user_reset', '密码重置', 'reset-password', '/api/blade-user/reset-password', 'key', 8, 2, 1, 1),
  (359, 350, 'user_unlock', '账号解封', 'unlock', '/api/blade-user/unlock', 'unlock', 9, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (350);

update sys_param set param_value = param_value || ',user'
 where param_key = 'tenant.default.menuCode';

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (360, 200, 'region', '行政区划', 'menu', '/system/region', 'environment', 85, 1, 0, 1),
  -- Regions are keyed by code and live in a module, so their buttons are listed here.
  (361, 360, 'region_add', '新增', 'add', '/system/region/add', 'plus', 1, 2, 1, 1),
  (362, 360, 'region_edit', '修改', 'edit', '/system/region/edit', 'form', 2, 2, 2, 1),
  (363, 360, 'region_delete', '删除', 'delete', '/api/blade-system/region/remove', 'delete', 3, 2, 3, 1),
  (364, 360, 'region_view', '查看', 'view', '/system/region/view', 'file-text', 4, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (360);
