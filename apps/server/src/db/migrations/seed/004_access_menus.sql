-- Screens of users' access: departments, roles (with their grant button) and menus.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (300, 200, 'dept', '机构管理', 'menu', '/system/dept', 'apartment', 20, 1, 0, 1),
  (301, 300, 'dept_add', '新增', 'add', '/system/dept/add', 'plus', 1, 2, 1, 1),
  (302, 300, 'dept_edit', '修改', 'edit', '/system/dept/edit', 'form', 2, 2, 2, 1),
  (303, 300, 'dept_delete', '删除', 'delete', '/api/blade-system/dept/remove', 'delete', 3, 2, 3, 1),
  (304, 300, 'dept_view', '查看', 'view', '/system/dept/view', 'file-text', 4, 2, 2, 1),
  (305, 300, 'dept_export', '导出', 'export', '/system/dept/export', 'download', 5, 2, 1, 1),
  (310, 200, 'role', '角色管理', 'menu', '/system/role', 'safety', 30, 1, 0, 1),
  (311, 310, 'role_add', '新增', 'add', '/system/role/add', 'plus', 1, 2, 1, 1),
  (312, 310, 'role_edit', '修改', 'edit', '/system/role/edit', 'form', 2, 2, 2, 1),
  (313, 310, 'role_delete', '删除', 'delete', '/api/blade-system/role/remove', 'delete', 3, 2, 3, 1),
  (314, 310, 'role_view', '查看', 'view', '/system/role/view', 'file-text', 4, 2, 2, 1),
  (315, 310, 'role_export', '导出', 'export', '/system/role/export', 'download', 5, 2, 1, 1),
  (316, 310, 'role_grant', '权限设置', 'role', '/api/blade-system/role/grant', 'key', 6, 2, 2, 1),
  (320, 200, 'menu', '菜单管理', 'menu', '/system/menu', 'bars', 60, 1, 0, 1),
  (321, 320, 'menu_add', '新增', 'add', '/system/menu/add', 'plus', 1, 2, 1, 1),
  (322, 320, 'menu_edit', '修改', 'edit', '/system/menu/edit', 'form', 2, 2, 2, 1),
  (323, 320, 'menu_delete', '删除', 'delete', '/api/blade-system/menu/remove', 'delete', 3, 2, 3, 1),
  (324, 320, 'menu_view', '查看', 'view', '/system/menu/view', 'file-text', 4, 2, 2, 1),
  (325, 320, 'menu_export', '导出', 'export', '/system/menu/export', 'download', 5, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (300, 310, 320);

update sys_param set param_value = param_value || ',dept,role'
 where param_key = 'tenant.default.menuCode';

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (330, 200, 'dataScope', '数据权限', 'menu', '/system/data-scope', 'database', 62, 1, 0, 1),
  (331, 330, 'dataScope_add', '新增', 'add', '/system/data-scope/add', 'plus', 1, 2, 1, 1),
  (332, 330, 'dataScope_edit', '修改', 'edit', '/system/data-scope/edit', 'form', 2, 2, 2, 1),
  (333, 330, 'dataScope_delete', '删除', 'delete', '/api/blade-system/data-scope/remove', 'delete', 3, 2, 3, 1),
  (334, 330, 'dataScope_view', '查看', 'view', '/system/data-scope/view', 'file-text', 4, 2, 2, 1),
  (335, 330, 'dataScope_export', '导出', 'export', '/system/data-scope/export', 'download', 5, 2, 1, 1),
  (340, 200, 'apiScope', '接口权限', 'menu', '/system/api-scope', 'api', 64, 1, 0, 1),
  (341, 340, 'apiScope_add', '新增', 'add', '/system/api-scope/add', 'plus', 1, 2, 1, 1),
  (342, 340, 'apiScope_edit', '修改', 'edit', '/system/api-scope/edit', 'form', 2, 2, 2, 1),
  (343, 340, 'apiScope_delete', '删除', 'delete', '/api/blade-system/api-scope/remove', 'delete', 3, 2, 3, 1),
  (344, 340, 'apiScope_view', '查看', 'view', '/system/api-scope/view', 'file-text', 4, 2, 2, 1),
  (345, 340, 'apiScope_export', '导出', 'export', '/system/api-scope/export', 'download', 5, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (330, 340);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (350, 200, 'user', '用户管理', 'menu', '/system/user', 'user', 10, 1, 0, 1),
  (351, 350, 'user_add', '新增', 'add', '/system/user/add', 'plus', 1, 2, 1, 1),
  (352, 350, 'user_edit', '修改', 'edit', '/system/user/edit', 'form', 2, 2, 2, 1),
  (353, 350, 'user_delete', '删除', 'delete', '/api/blade-user/remove', 'delete', 3, 2, 3, 1),
  (354, 350, 'user_view', '查看', 'view', '/system/user/view', 'file-text', 4, 2, 2, 1),
  (355, 350, 'user_export', '导出', 'export', '/system/user/export', 'download', 5, 2, 1, 1),
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
  (361, 360, 'region_add', '新增', 'add', '/system/region/add', 'plus', 1, 2, 1, 1),
  (362, 360, 'region_edit', '修改', 'edit', '/system/region/edit', 'form', 2, 2, 2, 1),
  (363, 360, 'region_delete', '删除', 'delete', '/api/blade-system/region/remove', 'delete', 3, 2, 3, 1),
  (364, 360, 'region_view', '查看', 'view', '/system/region/view', 'file-text', 4, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (360);
