-- Money approvals become each tenant's own policy (issue 34): a 资金审批设置 screen under 收费管理
-- where a tenant's administrator sets, changes or clears its threshold and approver role (contract
-- §19 button style: moneyPolicy_edit). The platform's parameters stay the defaults of tenants that
-- set nothing. The shipped approval process (category flow_3) gets its route key, so 待办's 详情
-- and 办理 open its pages (/work/process/money/...).
insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed, remark) values
  (1057, 1054, 'flow', '3', '资金审批', 'Money approval', 3, 0, 'money');

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (2090, 800, 'moneyPolicy', '资金审批设置', 'menu', '/money/policy', 'audit', 37, 1, 0, 1),
  (2091, 2090, 'moneyPolicy_edit', '修改', 'edit', '/api/blade-pms/money-policy/submit', 'edit', 1, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id = 2090;

-- Every tenant's administrator role holds the screen (existing ones here, new ones by the default
-- menu codes): the administrator decides who approves its money.
insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by r.id, m.id), m.id, r.id
  from sys_role r
  join sys_menu m on m.id in (2090, 2091) and m.is_deleted = 0
 where r.role_alias in ('administrator', 'admin') and r.is_deleted = 0
   and not exists (select 1 from sys_role_menu x where x.role_id = r.id and x.menu_id = m.id);

update sys_param set param_value = param_value || ',moneyPolicy' where param_key = 'tenant.default.menuCode';
