-- 计量拓扑 (issue 36 item 1): the metering topology as a tree per energy type, beside 计量节点 and
-- 节点下级表 under 档案管理. A read-only view, so no buttons: what it links to (a meter's detail, a
-- node's 线损分析) is guarded by those screens' own grants.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2350, 400, 'meteringTopology', '计量拓扑', 'menu', '/pms/topology', 'cluster', 54, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2350;

-- Roles that hold the registry get the view. Ids as in 019: worker bits 1022.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (4350 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id = 400) as g
  join sys_menu m on m.id = 2350
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',meteringTopology'
 where param_key = 'tenant.default.menuCode';
