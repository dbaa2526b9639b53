-- Workflow screens (spec §4, §7 Workflow) as the family seeds them (contract §19): 我的事务 (`work`)
-- with the start, claim, todo, sent and done lists, and 流程管理 (`flow`) with deployment, the
-- deployed definitions and the running instances. The model designer (`flow_model`) is seeded
-- apart; both insert the 流程管理 group itself, so whichever runs first creates it.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1800, 0, 'flow', '流程管理', 'menu', '/flow', 'apartment', 88, 1, 0, 1)
on conflict do nothing;

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1801, 0, 'work', '我的事务', 'menu', '/work', 'calendar', 2, 1, 0, 1),
  (1802, 1801, 'work_start', '发起事务', 'menu', '/work/start', 'file-text', 1, 1, 0, 1),
  (1803, 1801, 'work_claim', '待签事务', 'menu', '/work/claim', 'bell', 2, 1, 0, 1),
  (1804, 1801, 'work_todo', '待办事务', 'menu', '/work/todo', 'file', 3, 1, 0, 1),
  (1805, 1801, 'work_send', '已发事务', 'menu', '/work/send', 'message', 4, 1, 0, 1),
  (1806, 1801, 'work_done', '办结事务', 'menu', '/work/done', 'book', 5, 1, 0, 1),
  (1807, 1800, 'flow_deploy', '流程部署', 'menu', '/flow/deploy', 'tool', 2, 1, 0, 1),
  (1808, 1800, 'flow_manager', '流程管理', 'menu', '/flow/manager', 'control', 3, 1, 0, 1),
  (1809, 1800, 'flow_follow', '流程跟踪', 'menu', '/flow/follow', 'monitor', 4, 1, 0, 1),
  (1810, 1802, 'work_start_flow', '发起', 'flow', '/work/process/leave/form', 'send', 1, 2, 2, 1),
  (1811, 1802, 'work_start_image', '流程图', 'image', '/api/blade-flow/process/resource-view', 'picture', 2, 2, 2, 1),
  (1812, 1803, 'work_claim_sign', '签收', 'sign', '/api/blade-flow/work/claim-task', 'check', 1, 2, 2, 1),
  (1813, 1803, 'work_claim_detail', '详情', 'detail', '/work/process/leave/detail', 'file-search', 2, 2, 2, 1),
  (1814, 1803, 'work_claim_follow', '跟踪', 'follow', '/api/blade-flow/process/history-flow-list', 'node-index', 3, 2, 2, 1),
  (1815, 1804, 'work_todo_handle', '办理', 'handle', '/work/process/leave/handle', 'edit', 1, 2, 2, 1),
  (1816, 1804, 'work_todo_detail', '详情', 'detail', '/work/process/leave/detail', 'file-search', 2, 2, 2, 1),
  (1817, 1804, 'work_todo_follow', '跟踪', 'follow', '/api/blade-flow/process/history-flow-list', 'node-index', 3, 2, 2, 1),
  (1818, 1805, 'work_send_detail', '详情', 'detail', '/work/process/leave/detail', 'file-search', 1, 2, 2, 1),
  (1819, 1805, 'work_send_follow', '跟踪', 'follow', '/api/blade-flow/process/history-flow-list', 'node-index', 2, 2, 2, 1),
  (1820, 1806, 'work_done_detail', '详情', 'detail', '/work/process/leave/detail', 'file-search', 1, 2, 2, 1),
  (1821, 1806, 'work_done_follow', '跟踪', 'follow', '/api/blade-flow/process/history-flow-list', 'node-index', 2, 2, 2, 1),
  (1822, 1808, 'flow_manager_state', '变更状态', 'state', '/api/blade-flow/manager/change-state', 'swap', 1, 2, 2, 1),
  (1823, 1808, 'flow_manager_image', '流程图', 'image', '/api/blade-flow/process/resource-view', 'picture', 2, 2, 2, 1),
  (1824, 1808, 'flow_manager_remove', '删除', 'remove', '/api/blade-flow/manager/delete-deployment', 'delete', 3, 2, 2, 1),
  (1825, 1809, 'flow_follow_delete', '删除', 'delete', '/api/blade-flow/follow/delete-process-instance', 'delete', 1, 2, 2, 1);

-- Both groups sit in the 工作台 top menu: people do their tasks where they start their day.
insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 1, m.id from sys_menu m
 where m.id in (1800, 1801)
   and not exists (select 1 from sys_top_menu_setting s where s.top_menu_id = 1 and s.menu_id = m.id);

-- Leave types of the leave form (contract §13.5 leaves the type to the dictionary).
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1800, 0, 'leave_type', '-1', '请假类型', 'Leave type', 48, 0),
  (1801, 1800, 'leave_type', '1', '事假', 'Personal leave', 1, 0),
  (1802, 1800, 'leave_type', '2', '病假', 'Sick leave', 2, 0),
  (1803, 1800, 'leave_type', '3', '年假', 'Annual leave', 3, 0),
  (1804, 1800, 'leave_type', '4', '调休', 'Time off in lieu', 4, 0),
  (1805, 1800, 'leave_type', '5', '婚假', 'Marriage leave', 5, 0),
  (1806, 1800, 'leave_type', '6', '产假', 'Maternity leave', 6, 0);

-- Every tenant's administrator role (existing ones here, new ones by the default menu codes) holds
-- both groups and all their screens and buttons.
insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by r.id, m.id), m.id, r.id
  from sys_role r
  join sys_menu m on m.id between 1800 and 1825 and m.is_deleted = 0
 where r.role_alias = 'admin' and r.is_deleted = 0
   and not exists (select 1 from sys_role_menu x where x.role_id = r.id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',work,flow' where param_key = 'tenant.default.menuCode';
