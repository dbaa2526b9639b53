-- "Supply: Closed" read as cut off: a relay closed (valve open) is supply on. The English names of
-- SWITCH_STATUS say what the reader needs, for the platform's defaults and every tenant's copy.
update sys_dict_biz set dict_value_en = 'On' where code = 'SWITCH_STATUS' and dict_key = '0' and dict_value_en = 'Closed';
update sys_dict_biz set dict_value_en = 'Off' where code = 'SWITCH_STATUS' and dict_key = '1' and dict_value_en = 'Open';
