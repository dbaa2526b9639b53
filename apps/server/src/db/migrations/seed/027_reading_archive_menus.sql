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

-- Where a read came from: the gateway's poll, or entered by hand (spec §7 dataReadOther).
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1620, 0, 'reading_source', '-1', '抄读来源', 'Read by', 46, 0),
  (1621, 1620, 'reading_source', 'gateway', '远程抄读', 'Remote read', 1, 0),
  (1622, 1620, 'reading_source', 'manual', '人工录入', 'Entered by hand', 2, 0);

-- Corrections of the reading logs: enter a read by hand (submit) and void a read (remove).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (6111, 611, 'dataRead_add', '人工录入', 'add', '/api/blade-pms/dataread/submit', 'plus', 10, 2, 1, 1),
  (6112, 611, 'dataRead_delete', '作废', 'delete', '/api/blade-pms/dataread/remove', 'delete', 11, 2, 3, 1),
  (6131, 613, 'waterDataRead_add', '人工录入', 'add', '/api/blade-pms/waterdataread/submit', 'plus', 10, 2, 1, 1),
  (6132, 613, 'waterDataRead_delete', '作废', 'delete', '/api/blade-pms/waterdataread/remove', 'delete', 11, 2, 3, 1);

-- Electric reads entered by hand, live and moved to history (spec §7 dataReadOther, dataReadOtherHis).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (617, 600, 'dataReadOther', '电表人工抄读', 'menu', '/reading/dataReadOther', 'file-text', 26, 1, 0, 1),
  (618, 600, 'dataReadOtherHis', '电表人工抄读历史', 'menu', '/reading/dataReadOtherHis', 'database', 27, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (617, 618);
