-- Flow route entries (spec §3): a process category flow_<key> opens the form, handle and detail
-- pages of the route the dictionary item's remark names (contract §13.5: 1 leave, 2 expense).
update sys_dict set remark = 'leave' where code = 'flow' and dict_key = '1' and parent_id > 0 and remark is null;
update sys_dict set remark = 'expense' where code = 'flow' and dict_key = '2' and parent_id > 0 and remark is null;
