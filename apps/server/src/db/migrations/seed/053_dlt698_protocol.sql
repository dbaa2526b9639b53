-- DL/T 698.45 electric meters (issue 35): behind DTUs or dialling in over 4G; the gateway reads
-- them by GET and switches them by ACTION.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1144, 1140, 'meter_protocol', 'dlt698_45', 'DL/T 698.45', 'DL/T 698.45', 4, 0);
