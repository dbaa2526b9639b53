-- The family's seed (contract §19) spells these menus and buttons differently from what earlier
-- migrations wrote, and the family's own console finds a screen by its menu path and a button by
-- its code. Rows are renamed in place (ids, grants and top-menu links stay), so databases that ran
-- the earlier migrations end the same as fresh ones; on a fresh database the standard buttons are
-- created after this file, already under the new names (db/standard-buttons.ts).

update sys_menu m
   set code = r.new_code || substr(m.code, length(r.old_code) + 1),
       path = case when m.path like r.old_path || '%' then r.new_path || substr(m.path, length(r.old_path) + 1) else m.path end
  from (values
    ('dictBiz', 'dictbiz', '/system/dict-biz', '/system/dictbiz'),
    ('topMenu', 'topmenu', '/system/topmenu', '/system/topmenu'),
    ('role', 'role', '/system/role', '/authority/role'),
    ('dataScope', 'data_scope', '/system/data-scope', '/authority/datascope'),
    ('apiScope', 'api_scope', '/system/api-scope', '/authority/apiscope'),
    ('region', 'region', '/system/region', '/base/region'),
    ('logUsual', 'log_usual', '/monitor/log/usual', '/monitor/log/usual'),
    ('logApi', 'log_api', '/monitor/log/api', '/monitor/log/api'),
    ('logError', 'log_error', '/monitor/log/error', '/monitor/log/error')
  ) as r(old_code, new_code, old_path, new_path)
 where m.code = r.old_code or m.code like r.old_code || '\_%';

-- New tenants' administrators get these menus by code.
update sys_param
   set param_value = (
     select string_agg(coalesce(r.new_code, c.code), ',' order by c.n)
       from unnest(string_to_array(param_value, ',')) with ordinality as c(code, n)
       left join (values
         ('dictBiz', 'dictbiz'), ('topMenu', 'topmenu'), ('dataScope', 'data_scope'),
         ('apiScope', 'api_scope'), ('logUsual', 'log_usual'), ('logApi', 'log_api'),
         ('logError', 'log_error')
       ) as r(old_code, new_code) on r.old_code = c.code
   )
 where param_key = 'tenant.default.menuCode';

-- Buttons the family has and earlier migrations lacked. Granting menus to a top menu takes
-- topmenu_setting (it took topMenu_edit before).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (266, 260, 'topmenu_setting', '菜单配置', 'setting', '/api/blade-system/topmenu/grant', 'setting', 7, 2, 2, 1),
  (336, 330, 'data_scope_setting', '权限配置', 'setting', '/authority/datascope/setting', 'setting', 7, 2, 2, 1),
  (346, 340, 'api_scope_setting', '权限配置', 'setting', '/authority/apiscope/setting', 'setting', 7, 2, 2, 1),
  (365, 360, 'region_import', '导入', 'import', '/api/blade-system/region/import-region', 'upload', 5, 2, 1, 1),
  (366, 360, 'region_export', '导出', 'export', '/api/blade-system/region/export-region', 'download', 6, 2, 1, 1);

-- Whoever could do the nearest thing before keeps being able to: roles holding a screen's edit
-- (or add, view) button get its new one. Ids follow the server's layout (ms since 2024 << 22),
-- with worker bits 1023 that no server process draws together with the row number.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1023 << 12) | row_number() over ()),
       g.new_id, rm.role_id
  from (values (266, 'topmenu_edit'), (336, 'data_scope_edit'), (346, 'api_scope_edit'),
               (365, 'region_add'), (366, 'region_view')) as g(new_id, held_code)
  join sys_menu held on held.code = g.held_code and held.is_deleted = 0
  join sys_role_menu rm on rm.menu_id = held.id
 where not exists (select 1 from sys_role_menu x where x.role_id = rm.role_id and x.menu_id = g.new_id);

-- The family's user form requires a post; the platform tenant had none. Skipped where the platform
-- tenant already has posts of its own.
insert into sys_post (id, tenant_id, category, post_code, post_name, sort, remark)
select 1, '000000', 1, 'ceo', '首席执行官', 1, '平台负责人'
 where not exists (select 1 from sys_post where id = 1 or (tenant_id = '000000' and is_deleted = 0));

update sys_user set post_id = '1'
 where tenant_id = '000000' and account = 'admin' and post_id = ''
   and exists (select 1 from sys_post where id = 1 and is_deleted = 0);
