-- Third-party sign-in (issue 19) under 系统管理 (beside 用户管理): the providers of the tenant (a plain resource
-- screen whose standard buttons come from its definition) and the review of registration
-- applications with its approve and reject buttons. New tenants' administrators get both.

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1870, 0, 'social_source', '-1', '第三方登录来源', 'Sign-in provider kind', 60, 0),
  (1871, 1870, 'social_source', 'oidc', 'OpenID Connect', 'OpenID Connect', 1, 0),
  (1872, 1870, 'social_source', 'github', 'GitHub', 'GitHub', 2, 0),
  (1873, 1870, 'social_source', 'gitee', '码云 Gitee', 'Gitee', 3, 0),
  (1874, 1870, 'social_source', 'wechat_open', '微信开放平台', 'WeChat Open Platform', 4, 0),
  (1875, 1870, 'social_source', 'wechat_mp', '微信公众号', 'WeChat official account', 5, 0),
  (1876, 0, 'registration_status', '-1', '注册申请状态', 'Registration status', 61, 0),
  (1877, 1876, 'registration_status', '0', '待审核', 'Pending', 1, 0),
  (1878, 1876, 'registration_status', '1', '已通过', 'Approved', 2, 0),
  (1879, 1876, 'registration_status', '2', '已拒绝', 'Rejected', 3, 0);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1870, 200, 'social_provider', '第三方登录', 'menu', '/system/social-provider', 'login', 70, 1, 0, 1),
  (1871, 200, 'social_registration', '注册审核', 'menu', '/system/registration', 'audit', 72, 1, 0, 1),
  (1872, 1871, 'social_registration_approve', '通过', 'approve', '/api/blade-user/registration/approve', 'check', 1, 2, 2, 1),
  (1873, 1871, 'social_registration_reject', '拒绝', 'reject', '/api/blade-user/registration/reject', 'close', 2, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (1870, 1871);

update sys_param set param_value = param_value || ',social_provider,social_registration'
 where param_key = 'tenant.default.menuCode';
