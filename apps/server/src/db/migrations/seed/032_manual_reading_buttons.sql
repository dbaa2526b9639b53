-- Hand readings in the console (spec §7 dataReadOther, dataread, waterdataread, metercurrentdata):
-- - the hand-read list gets the same "enter a read" and "void" buttons as the reading logs (the
--   server's dataread/submit and /remove accept either screen's code);
-- - the latest-values screen gets "edit remark" and "hide" (metercurrentdata/submit, /remove).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1750, 610, 'meterCurrentData_edit', '修改备注', 'edit', '/api/blade-pms/metercurrentdata/submit', 'form', 10, 2, 2, 1),
  (1751, 610, 'meterCurrentData_delete', '隐藏', 'delete', '/api/blade-pms/metercurrentdata/remove', 'delete', 11, 2, 3, 1),
  (1752, 617, 'dataReadOther_add', '人工录入', 'add', '/api/blade-pms/dataread/submit', 'plus', 10, 2, 1, 1),
  (1753, 617, 'dataReadOther_delete', '作废', 'delete', '/api/blade-pms/dataread/remove', 'delete', 11, 2, 3, 1),
  -- Reads taken on site, imported from a sheet (each row entered as a manual submit).
  (1754, 611, 'dataRead_import', '导入', 'import', '/api/blade-pms/dataread/import', 'upload', 12, 2, 1, 1),
  (1755, 613, 'waterDataRead_import', '导入', 'import', '/api/blade-pms/waterdataread/import', 'upload', 12, 2, 1, 1),
  (1756, 617, 'dataReadOther_import', '导入', 'import', '/api/blade-pms/dataread/import', 'upload', 12, 2, 1, 1);

-- Roles that had a screen get its new buttons, and the reading logs' correction buttons (seeded
-- with their screens' menus) go to the roles holding those screens as well.
insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by g.role_id, g.menu_id), g.menu_id, g.role_id
  from (select distinct rm.role_id, b.id as menu_id
          from sys_menu b
          join sys_role_menu rm on rm.menu_id = b.parent_id
         where b.id in (1750, 1751, 1752, 1753, 1754, 1755, 1756, 6111, 6112, 6131, 6132) and b.is_deleted = 0) g
 where not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = g.menu_id);
