-- WeChat Pay reconciliation (issue 20) under 收费管理 next to 微信支付订单, with its reconcile,
-- settle and export buttons (contract §19). New tenants' administrators get the screen.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2080, 800, 'wxbill', '微信对账', 'menu', '/money/wxbill', 'audit', 36, 1, 0, 1),
  (2081, 2080, 'wxbill_reconcile', '对账', 'reconcile', '/api/blade-pms/wxbill/reconcile', 'sync', 1, 2, 1, 1),
  (2082, 2080, 'wxbill_settle', '处理差异', 'settle', '/api/blade-pms/wxbill/settle', 'check', 2, 2, 2, 1),
  (2083, 2080, 'wxbill_export', '导出', 'export', '/api/blade-pms/wxbill/diff-export', 'download', 3, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2080;

update sys_param set param_value = param_value || ',wxbill' where param_key = 'tenant.default.menuCode';
