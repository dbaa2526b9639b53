-- Shared-cost apportionment (公摊分摊, issue 36 item 3): the page under 运行控制 beside 线损分析,
-- with its booking and reversal as buttons so that a role may preview without moving money.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2320, 700, 'apportionment', '公摊分摊', 'menu', '/operation/apportionment', 'pie-chart', 25, 1, 0, 1),
  (2321, 2320, 'apportionment_book', '入账', 'book', '/api/blade-pms/apportionment/book', 'check', 1, 2, 1, 1),
  (2322, 2320, 'apportionment_reverse', '冲正', 'reverse', '/api/blade-pms/apportionment/reverse', 'rollback', 2, 2, 1, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2320;

-- Roles that hold 运行控制 get the page and its buttons. Ids as in 019: worker bits 1022.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (3900 + row_number() over ())),
       m.id, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id = 700) as g
  join sys_menu m on m.id between 2320 and 2322
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',apportionment,apportionment_book,apportionment_reverse'
 where param_key = 'tenant.default.menuCode';
