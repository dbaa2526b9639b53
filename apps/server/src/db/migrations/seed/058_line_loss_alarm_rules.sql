-- The line-loss alarms a node's day raises on its master meter (issue 36): a loss above the node's
-- learned band, and a negative loss (its sub-meters count more than its master: the meters are
-- mapped to the wrong node, or one of them is faulty). They follow the meter rules in the
-- alarm_rule dictionary; the balance reminder, no rule, stays last.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (2620, 1400, 'alarm_rule', 'loss_above_band', '线损超出正常范围', 'Loss above its normal band', 16, 0),
  (2621, 1400, 'alarm_rule', 'loss_negative', '负线损(挂接或表计故障)', 'Negative loss (mapping or meter fault)', 17, 0);
update sys_dict set sort = 18 where id = 1439 and code = 'alarm_rule' and dict_key = 'reminder';
