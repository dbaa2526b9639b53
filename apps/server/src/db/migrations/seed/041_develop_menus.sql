-- 研发工具 › 代码生成 and 数据源 (contract §19: `tool` /tool → `code` /tool/code, `datasource`
-- /tool/datasource) with their buttons, under the 系统管理 top menu; and the server's own database
-- as the first data source (an empty url names it).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2000, 0, 'tool', '研发工具', 'menu', '/tool', 'tool', 87, 1, 0, 1),
  (2001, 2000, 'code', '代码生成', 'menu', '/tool/code', 'code', 1, 1, 0, 1),
  (2002, 2001, 'code_add', '新增', 'add', '/tool/code/add', 'plus', 1, 2, 1, 1),
  (2003, 2001, 'code_edit', '修改', 'edit', '/tool/code/edit', 'form', 2, 2, 2, 1),
  (2004, 2001, 'code_delete', '删除', 'delete', '/api/blade-develop/code/remove', 'delete', 3, 2, 3, 1),
  (2005, 2001, 'code_view', '查看', 'view', '/tool/code/view', 'file-text', 4, 2, 2, 1),
  (2006, 2001, 'code_copy', '复制', 'copy', '/api/blade-develop/code/copy', 'copy', 5, 2, 2, 1),
  (2007, 2001, 'code_gen', '代码生成', 'gen', '/api/blade-develop/code/gen-code', 'download', 6, 2, 2, 1),
  (2008, 2000, 'datasource', '数据源管理', 'menu', '/tool/datasource', 'database', 2, 1, 0, 1),
  (2009, 2008, 'datasource_add', '新增', 'add', '/tool/datasource/add', 'plus', 1, 2, 1, 1),
  (2010, 2008, 'datasource_edit', '修改', 'edit', '/tool/datasource/edit', 'form', 2, 2, 2, 1),
  (2011, 2008, 'datasource_delete', '删除', 'delete', '/api/blade-develop/datasource/remove', 'delete', 3, 2, 3, 1),
  (2012, 2008, 'datasource_view', '查看', 'view', '/tool/datasource/view', 'file-text', 4, 2, 2, 1),
  (2013, 2008, 'datasource_test', '测试连接', 'test', '/api/blade-develop/datasource/test-connection', 'api', 5, 2, 2, 1)
on conflict do nothing;

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (2000, 2001, 2008)
on conflict do nothing;

insert into blade_datasource (id, name, url, remark) values
  (1, '本服务数据库', '', '服务器自身的 PostgreSQL 数据库')
on conflict do nothing;
