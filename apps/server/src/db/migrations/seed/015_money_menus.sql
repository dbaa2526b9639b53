-- Money screens (spec §7 PMS: ownerRecharge, datarecharge, payment, dataopenaccount,
-- datacloseaccount) under their own menu. The recharge, refund and correction buttons move from the
-- owner screen to the recharge counter, where the front desk takes money.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (800, 0, 'money', '收费管理', 'menu', '/money', 'wallet', 8, 1, 0, 1),
  (810, 800, 'ownerRecharge', '充值收费', 'menu', '/money/ownerrecharge', 'wallet', 10, 1, 0, 1),
  (820, 800, 'dataRecharge', '充值记录', 'menu', '/money/datarecharge', 'file', 20, 1, 0, 1),
  (830, 800, 'payment', '支付记录', 'menu', '/money/payment', 'dollar', 30, 1, 0, 1),
  (840, 800, 'dataOpenAccount', '开户记录', 'menu', '/money/dataopenaccount', 'plus', 40, 1, 0, 1),
  (850, 800, 'dataCloseAccount', '销户记录', 'menu', '/money/datacloseaccount', 'minus', 50, 1, 0, 1),
  (860, 800, 'accountStatement', '账户对账单', 'menu', '/money/statement', 'file', 60, 1, 0, 1),
  (811, 810, 'ownerRecharge_group', '分组充值', 'rechargeGroup', '/api/blade-pms/ownerRecharge/rechargeGroup', 'team', 11, 2, 2, 1),
  (821, 820, 'dataRecharge_export', '导出', 'export', '/api/blade-pms/datarecharge/export', 'download', 1, 2, 1, 1),
  (831, 830, 'payment_add', '新增', 'add', '/api/blade-pms/payment/submit', 'plus', 1, 2, 1, 1),
  (832, 830, 'payment_delete', '删除', 'delete', '/api/blade-pms/payment/remove', 'delete', 2, 2, 3, 1),
  (833, 830, 'payment_export', '导出', 'export', '/api/blade-pms/payment/export', 'download', 3, 2, 1, 1),
  (841, 840, 'dataOpenAccount_export', '导出', 'export', '/api/blade-pms/dataopenaccount/export', 'download', 1, 2, 1, 1),
  (851, 850, 'dataCloseAccount_export', '导出', 'export', '/api/blade-pms/datacloseaccount/export', 'download', 1, 2, 1, 1),
  (861, 860, 'accountStatement_export', '导出', 'export', '/api/blade-pms/account/statementExport', 'download', 1, 2, 1, 1);

update sys_menu set parent_id = 810 where id in (431, 432, 433);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 800 or m.parent_id = 800;

update sys_param set param_value = 'money,' || param_value where param_key = 'tenant.default.menuCode';
