-- Reading log and daily usage screens, under the readings menu; how long the reading log is kept.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (611, 600, 'dataRead', '电表抄读记录', 'menu', '/reading/dataread', 'file-text', 20, 1, 0, 1),
  (612, 600, 'dataDaily', '电表日用量', 'menu', '/reading/datadailydd', 'bar-chart', 30, 1, 0, 1),
  (613, 600, 'waterDataRead', '水表抄读记录', 'menu', '/reading/waterdataread', 'file-text', 40, 1, 0, 1),
  (614, 600, 'waterDataDaily', '水表日用量', 'menu', '/reading/waterdatadaily', 'bar-chart', 50, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (611, 612, 613, 614);

-- Where a day's opening value came from.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1200, 0, 'daily_source', '-1', '日初来源', 'Opening value from', 40, 0),
  (1201, 1200, 'daily_source', 'frozen', '表内日冻结', 'Meter daily freeze', 1, 0),
  (1202, 1200, 'daily_source', 'reading', '当日首次抄读', 'First read of the day', 2, 0);

insert into sys_param (id, param_name, param_key, param_value, remark) values
  (7, '抄读记录保留天数', 'reading.retentionDays', '400', '电表与水表抄读记录的保留天数;日用量不受影响');
