-- 批量任务 under 运行控制: every batch on meters (switch, valve, price and alarm writes, valve-state
-- reads, account openings and closings) is one durable job; the screen follows its progress, cancels
-- what has not been sent and retries exactly the failed meters, a button each (api-contract §19).
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1700, 700, 'batch_job', '批量任务', 'menu', '/operation/batchjob', 'cluster', 11, 1, 0, 1),
  (1701, 1700, 'batch_job_view', '查看', 'view', '/api/blade-pms/batchjob/detail', 'file-text', 1, 2, 1, 1),
  (1702, 1700, 'batch_job_cancel', '取消', 'cancel', '/api/blade-pms/batchjob/cancel', 'stop', 2, 2, 2, 1),
  (1703, 1700, 'batch_job_retry', '重试失败', 'retry', '/api/blade-pms/batchjob/retryFailed', 'redo', 3, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 1700;

-- Roles that hold 运行控制 follow the jobs they start from it and from the meter screens.
insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by rm.role_id, m.id), m.id, rm.role_id
  from (select distinct role_id from sys_role_menu where menu_id = 700) rm
 cross join (values (1700), (1701), (1702), (1703)) m(id);
