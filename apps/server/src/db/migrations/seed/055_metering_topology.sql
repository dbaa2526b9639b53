-- Metering topology (issue 36 items 1, 2, 7): the node tree with its master meters and the meters
-- counted under each node beside the other registry screens under 档案管理, and the line loss page
-- under 运行控制 beside 告警记录 and 待关注账户. The two registry screens get their standard buttons
-- here (contract §19 `<menu>_add|_edit|_delete|_view`, and export) so that the roles granted the
-- registry can be granted them too; the engine's button seeding then finds them present.

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2600, 0, 'metering_node_type', '-1', '计量节点类型', 'Metering node type', 40, 0),
  (2601, 2600, 'metering_node_type', '1', '供电点/变压器', 'Supply point / transformer', 1, 0),
  (2602, 2600, 'metering_node_type', '2', '楼栋', 'Building', 2, 0),
  (2603, 2600, 'metering_node_type', '3', '楼层/竖井', 'Floor / riser', 3, 0),
  (2604, 2600, 'metering_node_type', '4', '其他', 'Other', 4, 0),
  (2610, 0, 'apportion_rule', '-1', '分摊方式', 'Apportionment rule', 41, 0),
  (2611, 2610, 'apportion_rule', '1', '按面积', 'By floor area', 1, 0),
  (2612, 2610, 'apportion_rule', '2', '按用量', 'By usage', 2, 0),
  (2613, 2610, 'apportion_rule', '3', '平均分摊', 'Evenly', 3, 0),
  (2615, 0, 'node_meter_role', '-1', '下级表角色', 'Sub-meter role', 42, 0),
  (2616, 2615, 'node_meter_role', '1', '分户表', 'Tenant meter', 1, 0),
  (2617, 2615, 'node_meter_role', '2', '公区表', 'Common-area meter', 2, 0);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2300, 400, 'meteringNode', '计量节点', 'menu', '/pms/meteringnode', 'apartment', 52, 1, 0, 1),
  (2301, 400, 'meteringNodeMeter', '节点下级表', 'menu', '/pms/meteringnodemeter', 'link', 53, 1, 0, 1),
  (2302, 700, 'lineLoss', '线损分析', 'menu', '/operation/lineloss', 'line-chart', 24, 1, 0, 1),
  (2303, 2300, 'meteringNode_add', '新增', 'add', '/pms/meteringnode/add', 'plus', 1, 2, 1, 1),
  (2304, 2300, 'meteringNode_edit', '修改', 'edit', '/pms/meteringnode/edit', 'form', 2, 2, 2, 1),
  (2305, 2300, 'meteringNode_delete', '删除', 'delete', '/api/blade-pms/meteringnode/remove', 'delete', 3, 2, 3, 1),
  (2306, 2300, 'meteringNode_view', '查看', 'view', '/pms/meteringnode/view', 'file-text', 4, 2, 2, 1),
  (2307, 2300, 'meteringNode_export', '导出', 'export', '/pms/meteringnode/export', 'download', 5, 2, 1, 1),
  (2308, 2301, 'meteringNodeMeter_add', '新增', 'add', '/pms/meteringnodemeter/add', 'plus', 1, 2, 1, 1),
  (2309, 2301, 'meteringNodeMeter_edit', '修改', 'edit', '/pms/meteringnodemeter/edit', 'form', 2, 2, 2, 1),
  (2310, 2301, 'meteringNodeMeter_delete', '删除', 'delete', '/api/blade-pms/meteringnodemeter/remove', 'delete', 3, 2, 3, 1),
  (2311, 2301, 'meteringNodeMeter_view', '查看', 'view', '/pms/meteringnodemeter/view', 'file-text', 4, 2, 2, 1),
  (2312, 2301, 'meteringNodeMeter_export', '导出', 'export', '/pms/meteringnodemeter/export', 'download', 5, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (2300, 2301, 2302);

-- Roles that hold the registry get the topology screens and their buttons; roles that hold 运行控制
-- get the loss page. Ids as in 019: the server's layout with worker bits 1022.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (3300 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id, rm.menu_id as group_id from sys_role_menu rm where rm.menu_id in (400, 700)) as g
  join sys_menu m on (g.group_id = 400 and m.id between 2300 and 2312 and m.id <> 2302)
                  or (g.group_id = 700 and m.id = 2302)
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',meteringNode,meteringNodeMeter,lineLoss'
 where param_key = 'tenant.default.menuCode';
