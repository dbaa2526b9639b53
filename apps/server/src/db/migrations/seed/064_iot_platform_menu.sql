-- 物联网平台 (issue 38): the tenant's CTWing / OneNET / IoTDA configuration for NB-IoT meters,
-- beside 微信支付配置 under 档案管理 and, like it, a tenant administrator's screen (the server also
-- asks for the administrator's role). Reading and saving are buttons so a role may be shown the
-- webhook addresses without being able to change the secrets.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2370, 400, 'iotPlatform', '物联网平台', 'menu', '/pms/iotplatform', 'iconfont iconicon_cloud_history', 98, 1, 0, 1),
  (2371, 2370, 'iotPlatform_view', '查看', 'view', '/api/blade-pms/iot/platform/detail', 'file-text', 1, 2, 1, 1),
  (2372, 2370, 'iotPlatform_edit', '保存', 'edit', '/api/blade-pms/iot/platform/submit', 'edit', 2, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2370;

-- Roles that hold 微信支付配置 (the platforms' secrets were its grant until now) get the screen and
-- its buttons. Ids as in 019: worker bits 1022.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (4370 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id = 496) as g
  join sys_menu m on m.id between 2370 and 2372
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',iotPlatform,iotPlatform_view,iotPlatform_edit'
 where param_key = 'tenant.default.menuCode';
