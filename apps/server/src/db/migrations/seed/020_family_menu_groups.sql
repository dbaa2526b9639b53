-- The family's seed (contract §19) keeps roles and scopes under their own top-level group
-- 权限管理 (/authority) and regions under 基础配置 (/base), beside 系统管理, not inside it. The
-- screens keep their ids, codes, paths, buttons and grants; only their parent changes, so
-- databases that ran the earlier migrations end the same as fresh ones.

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (280, 0, 'authority', '权限管理', 'menu', '/authority', 'lock', 82, 1, 0, 1),
  (290, 0, 'base', '基础配置', 'menu', '/base', 'global', 84, 1, 0, 1);

update sys_menu set parent_id = 280 where id in (310, 330, 340) and parent_id = 200;
update sys_menu set parent_id = 290 where id = 360 and parent_id = 200;

-- The groups belong to the 系统管理 top menu, like the screens in them.
insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (280, 290)
   and not exists (select 1 from sys_top_menu_setting s where s.top_menu_id = 3 and s.menu_id = m.id);

-- A role that holds a moved screen holds its new group too, as a grant saved from the dialog would
-- (grants store every ancestor of a checked node). Ids as in 019: the server's layout with worker
-- bits 1022, which no server process draws.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1022 << 12) | row_number() over ()),
       g.group_id, g.role_id
  from (select distinct case when rm.menu_id = 360 then 290 else 280 end as group_id, rm.role_id
          from sys_role_menu rm
         where rm.menu_id in (310, 330, 340, 360)) as g
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = g.group_id);
