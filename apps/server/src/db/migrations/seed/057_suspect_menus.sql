-- Suspects (窃电与漏水, issue 36 item 4): the page under 运行控制 beside 线损分析, with the sweep and
-- the verdict as buttons so that a role may read the list without judging it.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2330, 700, 'suspects', '窃电与漏水', 'menu', '/operation/suspects', 'alert', 26, 1, 0, 1),
  (2331, 2330, 'suspects_sweep', '立即排查', 'sweep', '/api/blade-pms/suspects/sweep', 'search', 1, 2, 1, 1),
  (2332, 2330, 'suspects_state', '处理', 'state', '/api/blade-pms/suspects/state', 'check', 2, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2330;

-- Roles that hold 运行控制 get the page and its buttons. Ids as in 019: worker bits 1022.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (3950 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id = 700) as g
  join sys_menu m on m.id between 2330 and 2332
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',suspects,suspects_sweep,suspects_state'
 where param_key = 'tenant.default.menuCode';
