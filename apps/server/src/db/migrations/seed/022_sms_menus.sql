-- SMS providers (contract §12.3): the system dictionary of provider kinds and the 资源管理 group
-- with its 短信配置 screen (the plain resource page) and the enable button, as the family seeds
-- them. Only Aliyun (3) and Tencent Cloud (4) can send; the other kinds are listed as the family
-- lists them and answer a clear refusal when used.

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1300, 0, 'sms', '-1', '短信服务类型', 'SMS provider', 30, 0),
  (1301, 1300, 'sms', '1', '云片', 'Yunpian', 1, 0),
  (1302, 1300, 'sms', '2', '七牛云', 'Qiniu', 2, 0),
  (1303, 1300, 'sms', '3', '阿里云', 'Aliyun', 3, 0),
  (1304, 1300, 'sms', '4', '腾讯云', 'Tencent Cloud', 4, 0);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (370, 0, 'resource', '资源管理', 'menu', '/resource', 'database', 86, 1, 0, 1),
  (371, 370, 'sms', '短信配置', 'menu', '/resource/sms', 'message', 3, 1, 0, 1),
  (372, 371, 'sms_enable', '启用', 'enable', '/api/blade-resource/sms/enable', 'setting', 5, 2, 2, 1),
  (373, 371, 'sms_debug', '调试发送', 'debug', '/api/blade-resource/sms/endpoint/send-message', 'message', 6, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (370, 371);

-- Each new tenant's administrator sets up the tenant's own provider (owner notifications use it).
update sys_param set param_value = param_value || ',resource' where param_key = 'tenant.default.menuCode';
