-- Batch jobs under 运行控制 (api-contract §19): the job list with its progress, and the buttons
-- to cancel a running job and to retry the failed meters of one. Roles that may read the command
-- log may follow the jobs that fill it.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1700, 700, 'batch_job', '批量任务', 'menu', '/operation/batchjob', 'ordered-list', 11, 1, 0, 1),
  (1701, 1700, 'batch_job_view', '查看', 'view', '/api/blade-pms/batchjob/detail', 'file-text', 1, 2, 2, 1),
  (1702, 1700, 'batch_job_cancel', '取消任务', 'cancel', '/api/blade-pms/batchjob/cancel', 'stop', 2, 2, 2, 1),
  (1703, 1700, 'batch_job_retry', '重试失败', 'retry', '/api/blade-pms/batchjob/retryFailed', 'redo', 3, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 1700;

insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by rm.role_id, m.id), m.id, rm.role_id
  from (select distinct role_id from sys_role_menu where menu_id = 710) rm
 cross join (values (1700), (1701), (1702), (1703)) m(id);

-- A queued command of a cancelled job never goes out: the command log names that state.
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed)
select coalesce((select max(id) from sys_dict), 0) + 1, 1220, 'command_state', 'cancelled', '已取消', 'Cancelled', 6, 0;
