-- Alipay beside WeChat Pay (issue 39): the per-tenant Alipay settings screen under the registry,
-- next to WeChat Pay's, and the ALIPAY_GATEWAY dictionary its environment is chosen from.
-- Its icon is the family icon class of the wallet, as WeChat Pay settings has (seed 062).

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2670, 0, 'alipay_gateway', '-1', '支付宝网关环境', 'Alipay gateway environment', 64, 0),
  (2671, 2670, 'alipay_gateway', 'sandbox', '沙箱', 'Sandbox', 1, 0),
  (2672, 2670, 'alipay_gateway', 'production', '生产', 'Production', 2, 0);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2380, 400, 'alipayConfig', '支付宝配置', 'menu', '/pms/alipayconfig', 'iconfont iconicon_redpacket', 98, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2380;
