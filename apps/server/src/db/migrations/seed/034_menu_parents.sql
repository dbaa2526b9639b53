-- The family's seed (contract §19) keeps the three logs under their own group 日志管理 (`log`,
-- /monitor/log) inside 系统监控, where the logs' own paths already point. The screens keep their
-- ids, codes, paths, buttons and grants; only their parent changes, so databases that ran the
-- earlier migrations end the same as fresh ones.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1770, 900, 'log', '日志管理', 'menu', '/monitor/log', 'file', 2, 1, 0, 1);

update sys_menu set parent_id = 1770 where id in (910, 920, 930) and parent_id = 900;

-- The group belongs to the 系统监控 top menu, like the logs in it.
insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 2, m.id from sys_menu m where m.id = 1770
   and not exists (select 1 from sys_top_menu_setting s where s.top_menu_id = 2 and s.menu_id = m.id);

-- A role that holds a log holds its new group too, as a grant saved from the dialog would (grants
-- store every ancestor of a checked node). Ids as in 019: the server's layout with worker bits
-- 1022, which no server process draws; the sequence starts past 020's rows, which may share the
-- millisecond.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | (2048 + row_number() over ())),
       1770, g.role_id
  from (select distinct rm.role_id from sys_role_menu rm where rm.menu_id in (910, 920, 930)) as g
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = 1770);
