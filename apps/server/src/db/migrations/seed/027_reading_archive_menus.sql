-- The reading log of past periods (spec §7 datareadhistory, waterdatareadhistory) under the
-- readings menu: what the retention sweep moved out of the live log. Plain-resource screens; their
-- standard buttons (dataReadHistory_view, _export, …) are seeded from the definitions.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (615, 600, 'dataReadHistory', '电表历史抄读记录', 'menu', '/reading/datareadhistory', 'database', 25, 1, 0, 1),
  (616, 600, 'waterDataReadHistory', '水表历史抄读记录', 'menu', '/reading/waterdatareadhistory', 'database', 45, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (615, 616);

update sys_param set remark = '电表与水表抄读记录在实时表中的保留天数,过期移入历史抄读记录;日用量不受影响'
 where param_key = 'reading.retentionDays' and tenant_id = '000000';
