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

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (230, 200, 'dict', '系统字典', 'menu', '/system/dict', 'book', 70, 1, 0, 1),
  (231, 230, 'dict_add', '新增', 'add', '/system/dict/add', 'plus', 1, 2, 1, 1),
  (232, 230, 'dict_edit', '修改', 'edit', '/system/dict/edit', 'form', 2, 2, 2, 1),
  (233, 230, 'dict_delete', '删除', 'delete', '/api/blade-system/dict/remove', 'delete', 3, 2, 3, 1),
  (234, 230, 'dict_view', '查看', 'view', '/system/dict/view', 'file-text', 4, 2, 2, 1),
  (235, 230, 'dict_export', '导出', 'export', '/system/dict/export', 'download', 5, 2, 1, 1),
  (240, 200, 'dictBiz', '业务字典', 'menu', '/system/dict-biz', 'read', 75, 1, 0, 1),
  (241, 240, 'dictBiz_add', '新增', 'add', '/system/dict-biz/add', 'plus', 1, 2, 1, 1),
  (242, 240, 'dictBiz_edit', '修改', 'edit', '/system/dict-biz/edit', 'form', 2, 2, 2, 1),
  (243, 240, 'dictBiz_delete', '删除', 'delete', '/api/blade-system/dict-biz/remove', 'delete', 3, 2, 3, 1),
  (244, 240, 'dictBiz_view', '查看', 'view', '/system/dict-biz/view', 'file-text', 4, 2, 2, 1),
  (245, 240, 'dictBiz_export', '导出', 'export', '/system/dict-biz/export', 'download', 5, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (230, 240);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (250, 200, 'client', '应用管理', 'menu', '/system/client', 'appstore', 95, 1, 0, 1),
  (251, 250, 'client_add', '新增', 'add', '/system/client/add', 'plus', 1, 2, 1, 1),
  (252, 250, 'client_edit', '修改', 'edit', '/system/client/edit', 'form', 2, 2, 2, 1),
  (253, 250, 'client_delete', '删除', 'delete', '/api/blade-system/client/remove', 'delete', 3, 2, 3, 1),
  (254, 250, 'client_view', '查看', 'view', '/system/client/view', 'file-text', 4, 2, 2, 1),
  (255, 250, 'client_export', '导出', 'export', '/system/client/export', 'download', 5, 2, 1, 1),
  (260, 200, 'topMenu', '顶部菜单', 'menu', '/system/topmenu', 'menu', 35, 1, 0, 1),
  (261, 260, 'topMenu_add', '新增', 'add', '/system/topmenu/add', 'plus', 1, 2, 1, 1),
  (262, 260, 'topMenu_edit', '修改', 'edit', '/system/topmenu/edit', 'form', 2, 2, 2, 1),
  (263, 260, 'topMenu_delete', '删除', 'delete', '/api/blade-system/topmenu/remove', 'delete', 3, 2, 3, 1),
  (264, 260, 'topMenu_view', '查看', 'view', '/system/topmenu/view', 'file-text', 4, 2, 2, 1),
  (265, 260, 'topMenu_export', '导出', 'export', '/system/topmenu/export', 'download', 5, 2, 1, 1),
  (110, 100, 'notice', '通知公告', 'menu', '/desk/notice', 'notification', 3, 1, 0, 1),
  (111, 110, 'notice_add', '新增', 'add', '/desk/notice/add', 'plus', 1, 2, 1, 1),
  (112, 110, 'notice_edit', '修改', 'edit', '/desk/notice/edit', 'form', 2, 2, 2, 1),
  (113, 110, 'notice_delete', '删除', 'delete', '/api/blade-desk/notice/remove', 'delete', 3, 2, 3, 1),
  (114, 110, 'notice_view', '查看', 'view', '/desk/notice/view', 'file-text', 4, 2, 2, 1),
  (115, 110, 'notice_export', '导出', 'export', '/desk/notice/export', 'download', 5, 2, 1, 1),
  (910, 900, 'logUsual', '通用日志', 'menu', '/monitor/log/usual', 'file', 2, 1, 0, 1),
  (911, 910, 'logUsual_view', '查看', 'view', '/monitor/log/usual/view', 'file-text', 1, 2, 2, 1),
  (912, 910, 'logUsual_export', '导出', 'export', '/monitor/log/usual/export', 'download', 2, 2, 1, 1),
  (920, 900, 'logApi', '接口日志', 'menu', '/monitor/log/api', 'api', 3, 1, 0, 1),
  (921, 920, 'logApi_view', '查看', 'view', '/monitor/log/api/view', 'file-text', 1, 2, 2, 1),
  (922, 920, 'logApi_export', '导出', 'export', '/monitor/log/api/export', 'download', 2, 2, 1, 1),
  (930, 900, 'logError', '错误日志', 'menu', '/monitor/log/error', 'bug', 4, 1, 0, 1),
  (931, 930, 'logError_view', '查看', 'view', '/monitor/log/error/view', 'file-text', 1, 2, 2, 1),
  (932, 930, 'logError_export', '导出', 'export', '/monitor/log/error/export', 'download', 2, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (250, 260);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 2, m.id from sys_menu m where m.id in (910, 920, 930);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 1, m.id from sys_menu m where m.id in (110);

insert into sys_role_menu (id, menu_id, role_id) values (4, 110, 2), (5, 114, 2);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (270, 200, 'tenant', '租户管理', 'menu', '/system/tenant', 'team', 5, 1, 0, 1),
  (271, 270, 'tenant_add', '新增', 'add', '/system/tenant/add', 'plus', 1, 2, 1, 1),
  (272, 270, 'tenant_edit', '修改', 'edit', '/system/tenant/edit', 'form', 2, 2, 2, 1),
  (273, 270, 'tenant_delete', '删除', 'delete', '/api/blade-system/tenant/remove', 'delete', 3, 2, 3, 1),
  (274, 270, 'tenant_view', '查看', 'view', '/system/tenant/view', 'file-text', 4, 2, 2, 1),
  (275, 270, 'tenant_export', '导出', 'export', '/system/tenant/export', 'download', 5, 2, 1, 1),
  (276, 270, 'tenant_setting', '授权配置', 'setting', '/api/blade-system/tenant/setting', 'setting', 6, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (270);
