-- Users are enabled or disabled from the user screen (issue 21): the labels of sys_user.status.
-- A disabled user cannot sign in by any grant and its sessions end at once (user module).
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2070, 0, 'user_status', '-1', '用户状态', 'User status', 40, 0),
  (2071, 2070, 'user_status', '1', '启用', 'Enabled', 1, 0),
  (2072, 2070, 'user_status', '0', '禁用', 'Disabled', 2, 0);
