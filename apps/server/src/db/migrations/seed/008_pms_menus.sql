-- The registry screens (spec §1, §7 PMS) under their own top menu. Each screen's code names the
-- resource it shows; standard buttons come from the definitions, extra ones are listed here.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (400, 0, 'pms', '档案管理', 'menu', '/pms', 'cluster', 5, 1, 0, 1),
  (410, 400, 'area', '区域管理', 'menu', '/pms/area', 'environment', 10, 1, 0, 1),
  (420, 400, 'room', '房间管理', 'menu', '/pms/room', 'home', 20, 1, 0, 1),
  (430, 400, 'owner', '业主管理', 'menu', '/pms/owner', 'user', 30, 1, 0, 1),
  (435, 400, 'ownerRoom', '业主房间', 'menu', '/pms/ownerroom', 'link', 35, 1, 0, 1),
  (440, 400, 'ownerGroup', '业主分组', 'menu', '/pms/ownergroup', 'team', 40, 1, 0, 1),
  (450, 400, 'roomMeter', '房间表计', 'menu', '/pms/roommeter', 'link', 50, 1, 0, 1),
  (460, 400, 'meter', '电表管理', 'menu', '/pms/meter', 'thunderbolt', 60, 1, 0, 1),
  (470, 400, 'water', '水表管理', 'menu', '/pms/water', 'experiment', 70, 1, 0, 1),
  (480, 400, 'collector', '采集器管理', 'menu', '/pms/collector', 'control', 80, 1, 0, 1),
  (485, 400, 'meterOrigValue', '表计初始值', 'menu', '/pms/meterorigvalue', 'file', 85, 1, 0, 1),
  (490, 400, 'chargingScheme', '收费方案', 'menu', '/pms/chargingscheme', 'dollar', 90, 1, 0, 1),
  (495, 400, 'alarmScheme', '告警方案', 'menu', '/pms/alarmscheme', 'bell', 95, 1, 0, 1),
  (496, 400, 'wxConfig', '微信支付配置', 'menu', '/pms/wxconfig', 'wallet', 96, 1, 0, 1),
  (497, 400, 'wxBind', '微信绑定', 'menu', '/pms/wxbind', 'message', 97, 1, 0, 1),
  (411, 410, 'area_topology', '拓扑图', 'topology', '/api/blade-pms/area/topologyDiagram', 'cluster', 8, 2, 1, 1),
  (421, 420, 'room_import', '档案导入', 'import', '/pms/room/import', 'download', 8, 2, 1, 1),
  (441, 440, 'ownerGroup_bind', '绑定业主', 'bind', '/api/blade-pms/ownerGroup/bindOwner', 'link', 8, 2, 2, 1),
  (442, 440, 'ownerGroup_close', '批量断电', 'close', '/api/blade-pms/ownerGroup/closeMeter', 'thunderbolt', 9, 2, 2, 1);

insert into sys_top_menu (id, tenant_id, code, name, source, sort) values
  (4, '000000', 'pms', '档案管理', 'cluster', 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.parent_id = 400 or m.id = 400;

-- New tenants' administrators get the registry.
update sys_param set param_value = 'pms,' || param_value where param_key = 'tenant.default.menuCode';
