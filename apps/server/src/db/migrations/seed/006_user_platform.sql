-- The per-platform settings of a user (contract §10.1 platform-detail / update-platform).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (355, 350, 'user_platform', '平台配置', 'platform', '/api/blade-user/update-platform', 'setting', 10, 2, 2, 1);
