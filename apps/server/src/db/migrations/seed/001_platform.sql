-- Reference rows every installation has: the platform tenant, its roles and dept, the console's
-- OAuth client, the login parameters, and the menus of the console shell. Fixed small ids keep
-- later migrations able to point at them; generated ids are far larger. The administrator account
-- itself is created at start-up, because its password comes from configuration.

insert into sys_tenant (id, tenant_id, tenant_name, linkman, account_number)
values (1, '000000', '管理组', 'admin', -1);

insert into sys_dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort)
values (1, '000000', 0, '0', 1, 'Meterline', 'Meterline 平台运营', 1);

insert into sys_role (id, tenant_id, parent_id, role_name, sort, role_alias) values
  (1, '000000', 0, '超级管理员', 1, 'administrator'),
  (2, '000000', 0, '用户', 2, 'user');

insert into sys_client (id, client_id, client_secret, scope, authorized_grant_types, access_token_validity, refresh_token_validity)
values (1, 'saber', 'saber_secret', 'all', 'refresh_token,password,captcha,social', 3600, 604800);

insert into sys_param (id, param_name, param_key, param_value, remark) values
  (1, '登录失败锁定次数', 'account.failCount', '5', '连续登录失败达到该次数后锁定账号30分钟'),
  (2, '允许访客注册', 'account.registerUser', 'true', '第三方登录后可提交注册申请');

-- Console shell menus (category 1 = menu). Paths are console routes; a path containing html opens
-- in the iframe route.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (100, 0, 'desk', '工作台', 'menu', '/wel', 'desktop', 1, 1, 0, 1),
  (101, 100, 'home', '首页', 'menu', '/wel/index', 'home', 1, 1, 0, 1),
  (102, 100, 'dashboard', '控制台', 'menu', '/wel/dashboard', 'dashboard', 2, 1, 0, 1),
  (900, 0, 'monitor', '系统监控', 'menu', '/monitor', 'monitor', 90, 1, 0, 1),
  (901, 900, 'api_doc', '接口文档', 'menu', '/api/docs/static/index.html', 'api', 1, 1, 0, 1);

insert into sys_role_menu (id, menu_id, role_id) values
  (1, 100, 2), (2, 101, 2), (3, 102, 2);

insert into sys_top_menu (id, tenant_id, code, name, source, sort) values
  (1, '000000', 'desk', '工作台', 'desktop', 1),
  (2, '000000', 'monitor', '系统监控', 'monitor', 2);

insert into sys_top_menu_setting (id, top_menu_id, menu_id) values
  (1, 1, 100), (2, 1, 101), (3, 1, 102), (4, 2, 900), (5, 2, 901);

insert into sys_param (id, param_name, param_key, param_value, remark) values
  (3, '日志保留天数', 'log.retentionDays', '30', '接口日志、错误日志与通用日志的保留天数'),
  (4, '用户初始密码', 'account.initPassword', '123456', '重置密码与导入用户时使用的初始密码');

insert into sys_param (id, param_name, param_key, param_value, remark) values
  (5, '租户默认账号额度', 'tenant.default.accountNumber', '100', '新建租户的账号数量上限,-1 为不限'),
  (6, '租户默认菜单', 'tenant.default.menuCode', 'desk,post,dictBiz,topMenu,logApi,logError,logUsual', '新建租户管理员角色获得的菜单编号及其下级');
