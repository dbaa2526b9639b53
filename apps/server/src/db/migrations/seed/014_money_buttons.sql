-- Money operations: recharges, refunds and corrections on the owner screen, account opening on the
-- meter screens. Refunds and corrections are separate buttons so a cashier can take money without
-- being able to give it back or correct it.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (431, 430, 'ownerRecharge_recharge', '充值', 'recharge', '/api/blade-pms/datarecharge/submit', 'wallet', 8, 2, 2, 1),
  (432, 430, 'ownerRecharge_refund', '退款', 'refund', '/api/blade-pms/datarecharge/submit', 'rollback', 9, 2, 2, 1),
  (433, 430, 'ownerRecharge_correct', '冲正', 'correct', '/api/blade-pms/datarecharge/submit', 'edit', 10, 2, 2, 1),
  (462, 460, 'meter_open_account', '开户', 'openAccount', '/api/blade-pms/message/openAccount', 'plus', 9, 2, 2, 1),
  (472, 470, 'water_open_account', '开户', 'openAccount', '/api/blade-pms/waterparam/openAccount', 'plus', 9, 2, 2, 1);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (463, 460, 'meter_close_account', '销户', 'closeAccount', '/api/blade-pms/message/closeAccount', 'minus', 10, 2, 2, 1),
  (473, 470, 'water_close_account', '销户', 'closeAccount', '/api/blade-pms/waterparam/overAccountBatch', 'minus', 10, 2, 2, 1);
