-- WeChat Pay orders (spec §7 wxpay: list with descs) under 收费管理, with export and refund buttons
-- (contract §19), and the WXPAY_STATE dictionary. New tenants' administrators get the screen.

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2040, 0, 'wxpay_state', '-1', '微信支付订单状态', 'WeChat Pay order state', 62, 0),
  (2041, 2040, 'wxpay_state', '0', '未支付', 'Unpaid', 1, 0),
  (2042, 2040, 'wxpay_state', '1', '已支付', 'Paid', 2, 0),
  (2043, 2040, 'wxpay_state', '2', '已关闭', 'Closed', 3, 0),
  (2044, 2040, 'wxpay_state', '3', '支付失败', 'Failed', 4, 0),
  (2045, 0, 'wxpay_trade_type', '-1', '微信支付方式', 'WeChat Pay kind', 63, 0),
  (2046, 2045, 'wxpay_trade_type', 'jsapi', '公众号支付', 'In WeChat (JSAPI)', 1, 0),
  (2047, 2045, 'wxpay_trade_type', 'native', '扫码支付', 'QR code (Native)', 2, 0);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2040, 800, 'wxpay', '微信支付订单', 'menu', '/money/wxpay', 'wechat', 35, 1, 0, 1),
  (2041, 2040, 'wxpay_refund', '退款', 'refund', '/api/blade-pms/wxpay/refund', 'rollback', 1, 2, 2, 1),
  (2042, 2040, 'wxpay_export', '导出', 'export', '/api/blade-pms/wxpay/export', 'download', 2, 2, 1, 1),
  (2043, 2040, 'wxpay_native', '扫码收款', 'native', '/api/blade-pms/wxpay/native', 'qrcode', 3, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2040;

update sys_param set param_value = param_value || ',wxpay' where param_key = 'tenant.default.menuCode';
