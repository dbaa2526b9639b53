-- System administration menus and their buttons (category 2). A menu's code names the plain
-- resource the console renders there; button codes are the permission codes `<res>_<alias>`
-- that the server checks. action: 1 toolbar, 2 row, 3 both.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (200, 0, 'system', '系统管理', 'menu', '/system', 'setting', 80, 1, 0, 1),
  (210, 200, 'param', '参数管理', 'menu', '/system/param', 'tool', 90, 1, 0, 1),
  (211, 210, 'param_add', '新增', 'add', '/system/param/add', 'plus', 1, 2, 1, 1),
  (212, 210, 'param_edit', '修改', 'edit', '/system/param/edit', 'form', 2, 2, 2, 1),
  (213, 210, 'param_delete', '删除', 'delete', '/api/blade-system/param/remove', 'delete', 3, 2, 3, 1),
  (214, 210, 'param_view', '查看', 'view', '/system/param/view', 'file-text', 4, 2, 2, 1),
  (215, 210, 'param_export', '导出', 'export', '/system/param/export', 'download', 5, 2, 1, 1),
  (220, 200, 'post', '岗位管理', 'menu', '/system/post', 'idcard', 40, 1, 0, 1),
  (221, 220, 'post_add', '新增', 'add', '/system/post/add', 'plus', 1, 2, 1, 1),
  (222, 220, 'post_edit', '修改', 'edit', '/system/post/edit', 'form', 2, 2, 2, 1),
  (223, 220, 'post_delete', '删除', 'delete', '/api/blade-system/post/remove', 'delete', 3, 2, 3, 1),
  (224, 220, 'post_view', '查看', 'view', '/system/post/view', 'file-text', 4, 2, 2, 1),
  (225, 220, 'post_export', '导出', 'export', '/system/post/export', 'download', 5, 2, 1, 1);

insert into sys_top_menu (id, tenant_id, code, name, source, sort) values
  (3, '000000', 'system', '系统管理', 'setting', 3);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (200, 210, 220);
